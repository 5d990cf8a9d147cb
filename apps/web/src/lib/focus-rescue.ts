/** What a keyboard user can land on. */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const visible = (el: HTMLElement) => el.getClientRects().length > 0;

/**
 * Puts the keyboard in a part of the page that is not a control (a page's heading after a route
 * change, a landing section a link scrolled to), so a screen reader reads it and the next Tab starts
 * there. It shows no focus ring (index.css: `[data-focus-region]`): there is nothing to operate.
 */
export function focusRegion(el: HTMLElement): void {
  if (!el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.dataset.focusRegion = '';
  el.focus({ preventScroll: true });
}

/** The element's ancestors, nearest first: kept while it is in the page, to be read after it is gone. */
export function ancestorsOf(el: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (let parent = el.parentElement; parent; parent = parent.parentElement) out.push(parent);
  return out;
}

/**
 * Focuses the first control of the closest of `ancestors` still in the page that has one, short of
 * <main> itself (a new page is the router's, not a rescue). True when it did.
 */
export function focusNearest(ancestors: readonly HTMLElement[], doc: Document = document): boolean {
  const main = doc.querySelector('main');
  if (!main) return false;
  for (const region of ancestors) {
    if (!region.isConnected) continue;
    if (region === main || !main.contains(region)) return false;
    const target = [...region.querySelectorAll<HTMLElement>(FOCUSABLE)].find(visible);
    if (target) {
      target.focus();
      return true;
    }
  }
  return false;
}

/**
 * Where the part of the page the lost control was in sends the keyboard: `data-focus-return` on it
 * (or on an ancestor) lists selectors, separated by ';', tried in order. The nearest hint decides.
 */
function returnTarget(ancestors: readonly HTMLElement[], doc: Document = document): HTMLElement | undefined {
  const main = doc.querySelector('main');
  const hint = ancestors.find((a) => a.dataset.focusReturn)?.dataset.focusReturn;
  if (!main || !hint) return undefined;
  for (const selector of hint.split(';')) {
    const target = doc.querySelector<HTMLElement>(selector.trim());
    if (target && main.contains(target) && visible(target)) return target;
  }
  return undefined;
}

/**
 * Keeps the keyboard focus from falling to <body> when the control that held it goes away: a form
 * replaced by what it produced (Create Vault → Lock Vault), a row removed (Revoke), a button
 * disabled while it works. Focus goes back to that control once it can take it again, else where
 * its part of the page says (`data-focus-return`), else to the first control of the closest part of
 * the page still there. Only inside <main>, never when a
 * click put the focus elsewhere on purpose, and after dialogs have given focus back themselves.
 */
export function installFocusRescue(doc: Document = document): () => void {
  let last: HTMLElement | null = null;
  let ancestors: HTMLElement[] = [];
  let pointerSince = false;
  let timer: number | undefined;

  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof HTMLElement)) return;
    last = event.target;
    ancestors = ancestorsOf(last);
    pointerSince = false;
  };
  const onPointerDown = () => {
    pointerSince = true;
  };
  // Let go on purpose (Escape in the search box blurs it so the shortcuts answer): a control still in
  // the page, enabled and shown, that loses the focus to nothing is not to be handed it back. A button
  // disabled while it works, or a control removed, still is.
  const onFocusOut = (event: FocusEvent) => {
    const target = event.target;
    if (event.relatedTarget !== null || target !== last || !(target instanceof HTMLElement)) return;
    // Looked at once the page has settled: a control being removed loses the focus while still there.
    window.setTimeout(() => {
      const released =
        last === target &&
        (doc.activeElement === null || doc.activeElement === doc.body) &&
        target.isConnected &&
        target.matches(FOCUSABLE) &&
        visible(target);
      if (released) last = null;
    }, 0);
  };

  const rescue = () => {
    timer = undefined;
    if (pointerSince || !last || (doc.activeElement && doc.activeElement !== doc.body)) return;
    const main = doc.querySelector('main');
    if (!main) return;
    if (last.isConnected) {
      // Still there, only disabled while it works: it gets the focus back once it can take it (no
      // jumping to another field meanwhile, where typing would land unexpectedly).
      if (main.contains(last) && last.matches(FOCUSABLE) && visible(last)) last.focus();
      return;
    }
    const target = returnTarget(ancestors, doc);
    if (target) target.focus();
    else focusNearest(ancestors, doc);
  };
  // Dialogs give focus back on a timer of their own after they unmount: let them go first.
  const schedule = () => {
    if (timer === undefined) timer = window.setTimeout(rescue, 60);
  };
  const observer = new MutationObserver(schedule);
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('focusout', onFocusOut);
  doc.addEventListener('pointerdown', onPointerDown, true);
  return () => {
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('focusout', onFocusOut);
    doc.removeEventListener('pointerdown', onPointerDown, true);
    if (timer !== undefined) window.clearTimeout(timer);
  };
}
