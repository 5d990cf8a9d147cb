import { EXTENSION_SHORTCUTS } from '@linkwise/contract';

declare const __BROWSER__: 'chrome' | 'firefox';

/** Which package this bundle was built for (set by the build, one source tree for both). */
export const BROWSER: 'chrome' | 'firefox' = __BROWSER__;

/** The keyboard command that saves the current tab (manifest `commands`). */
export const SAVE_COMMAND = 'save-page';

export const DEFAULT_SERVER = 'http://localhost:3000';

export const DEFAULT_SHORTCUT = EXTENSION_SHORTCUTS[BROWSER];

/** Loopback origins: plain http is fine there, and Chrome pages there reach us without a content script. */
export function isLoopback(origin: string): boolean {
  const host = new URL(origin).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

/**
 * The origin of a server address a person typed, or an error sentence: https anywhere, plain http
 * only on this computer (a token sent over http elsewhere could be read on the way).
 */
export function parseServerAddress(input: string): { origin: string } | { error: string } {
  const text = input.trim();
  if (!text) return { error: 'Enter the address of your Linkwise server.' };
  // Browsers' URL parsers take spaces (as %20) in a host name; no server has one.
  if (/\s/.test(text)) return { error: 'This is not a web address. Example: https://links.example.com' };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return { error: 'This is not a web address. Example: https://links.example.com' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { error: 'The address must start with https://' };
  }
  if (url.username || url.password) return { error: 'Leave the user name and password out of the address.' };
  if (url.protocol === 'http:' && !isLoopback(url.origin)) {
    return { error: 'Use https:// for a server on another computer (plain http only for localhost).' };
  }
  return { origin: url.origin };
}

/** The host permission pattern for one server origin (the port is not part of a match pattern). */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}
