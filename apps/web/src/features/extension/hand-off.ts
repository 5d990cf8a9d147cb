import { EXTENSION_TOKEN_MESSAGE } from '@linkwise/contract';

interface ChromeRuntime {
  sendMessage: (extensionId: string, message: unknown, callback: (answer: unknown) => void) => void;
  lastError?: unknown;
}

/**
 * Hands a fresh extension token to the extension that opened this page, never through the address
 * bar or the history. Chrome and Edge on a loopback server take it directly (the extension lists
 * this origin in `externally_connectable`); elsewhere the extension's content script on this page
 * relays a message that this page posts to itself only.
 */
export function handOffToken(token: string, extensionId: string | null): void {
  const message = { type: EXTENSION_TOKEN_MESSAGE, token };
  const runtime = (window as { chrome?: { runtime?: Partial<ChromeRuntime> } }).chrome?.runtime;
  if (extensionId && /^[a-p]{32}$/.test(extensionId) && typeof runtime?.sendMessage === 'function') {
    try {
      // The callback reads lastError so Chrome does not log it when no extension answers.
      runtime.sendMessage(extensionId, message, () => void runtime.lastError);
    } catch {
      // Not an installed extension's id: the window message below still reaches a content script.
    }
  }
  window.postMessage(message, window.location.origin);
}
