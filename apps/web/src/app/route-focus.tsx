import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { focusRegion } from '../lib/focus-rescue';

const DIALOG = '[role="dialog"], [role="alertdialog"], dialog';

/** How long a new page (its chunk loads lazily) is waited for before the focus is left where it is. */
const WAIT_MS = 5000;

/**
 * Moves the keyboard focus to the new page's heading after a client-side route change, so that a
 * screen reader announces the page and Tab starts from it, as a full page load would. Left alone:
 * the first page, and a page or dialog that put the focus in itself (the add dialog of
 * /dashboard?add=true).
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const seen = useRef<string | null>(null);
  // The heading of the page last seen, and its words: a new page is told by a heading of its own
  // (React may keep the element of a heading in the same place and change its words).
  const shown = useRef<{ heading: Element; text: string } | null>(null);
  useEffect(() => {
    // The first page (its effect may run twice in development) is the browser's, not a route change.
    const initial = seen.current === null || seen.current === pathname;
    seen.current = pathname;
    const previous = shown.current;
    const started = performance.now();
    let frame = requestAnimationFrame(function look() {
      const heading = document.querySelector<HTMLElement>('main h1');
      const same = previous?.heading === heading && previous.text === heading?.textContent;
      if (!heading || (!initial && same)) {
        if (performance.now() - started < WAIT_MS) frame = requestAnimationFrame(look);
        return;
      }
      shown.current = { heading, text: heading.textContent ?? '' };
      if (initial) return;
      const main = heading.closest('main');
      const active = document.activeElement;
      // Where the new page or its dialog put the focus itself (an autofocused field), it stays.
      const placed = active && active !== document.body && (main?.contains(active) || active.closest(DIALOG));
      if (placed) return;
      focusRegion(heading);
    });
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  return null;
}
