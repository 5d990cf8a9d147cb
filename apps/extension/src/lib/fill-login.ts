export type FillResult = 'filled' | 'origin-mismatch' | 'no-password-field' | 'no-access';

/**
 * Injected into the top frame of the tab (scripting.executeScript under activeTab). Self-contained:
 * it runs in the page. It fills and never submits; it refuses a page of another origin than the
 * credential's and a page without a visible password field. Frames are never searched, so a login
 * form in an embedded frame (another site's, possibly) is left alone.
 */
export function fillLogin(expectedOrigin: string, username: string, password: string): FillResult {
  if (window.top !== window || location.origin !== expectedOrigin) return 'origin-mismatch';
  const usable = (el: HTMLInputElement) => !el.disabled && !el.readOnly && el.getClientRects().length > 0;
  const pass = [...document.querySelectorAll<HTMLInputElement>('input[type="password"]')].find(usable);
  if (!pass) return 'no-password-field';
  const scope: ParentNode = pass.form ?? document;
  const texts = [...scope.querySelectorAll<HTMLInputElement>('input')].filter(
    (el) => ['text', 'email', 'tel'].includes(el.type) && usable(el),
  );
  // The username is the last text field before the password field, or one named like it.
  const before = texts.filter((el) => el.compareDocumentPosition(pass) & Node.DOCUMENT_POSITION_FOLLOWING);
  const user = before.pop() ?? texts.find((el) => /user|mail|login/i.test(`${el.autocomplete} ${el.name} ${el.id}`));
  // Through the prototype's setter, so pages built with React or Vue see the change as typing.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the input as `this`
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  const set = (el: HTMLInputElement, value: string) => {
    if (setValue) setValue.call(el, value);
    else el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  };
  if (user && username) set(user, username);
  set(pass, password);
  return 'filled';
}
