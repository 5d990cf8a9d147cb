// Runs only on the connected server's /extension/auth page (registered for that origin when the
// user pressed Connect). It passes the page's token message to the background, so the token never
// travels through the address bar, the history or a third party.
import { EXTENSION_TOKEN_MESSAGE } from '@linkwise/contract';

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  // Only this page itself (not a frame, not another window) may hand over a token.
  if (event.source !== window || event.origin !== location.origin) return;
  const data = event.data as { type?: unknown } | null;
  if (!data || data.type !== EXTENSION_TOKEN_MESSAGE) return;
  void chrome.runtime.sendMessage(data).then(
    (answer: { ok?: boolean } | undefined) =>
      window.postMessage({ type: `${EXTENSION_TOKEN_MESSAGE}-ack`, ok: answer?.ok === true }, location.origin),
    () => window.postMessage({ type: `${EXTENSION_TOKEN_MESSAGE}-ack`, ok: false }, location.origin),
  );
});
