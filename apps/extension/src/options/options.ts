import { clientFor } from '../lib/api.js';
import { BROWSER, isLoopback, originPattern, parseServerAddress } from '../lib/env.js';
import { pendingSaves } from '../lib/queue.js';
import { getConnection, updateConnection, type Connection } from '../lib/state.js';
import { currentShortcut } from '../lib/welcome.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('connect-form');
const server = $<HTMLInputElement>('server');
const error = $<HTMLParagraphElement>('server-error');
const status = $<HTMLParagraphElement>('status');
const disconnect = $<HTMLButtonElement>('disconnect');
const connect = $<HTMLButtonElement>('connect');

const RELAY_ID = 'auth-relay';

/** The last thing that happened here (Disconnect's result), shown while not connected. */
let notice = '';

/** Firefox, and Chrome for a server not on this computer, receive the token through a content script. */
const needsRelay = (origin: string) => BROWSER === 'firefox' || !isLoopback(origin);

async function registerRelay(origin: string): Promise<void> {
  await chrome.scripting.unregisterContentScripts({ ids: [RELAY_ID] }).catch(() => undefined);
  await chrome.scripting.registerContentScripts([
    {
      id: RELAY_ID,
      matches: [`${originPattern(origin).slice(0, -1)}extension/auth*`],
      js: ['auth-relay.js'],
      runAt: 'document_start',
    },
  ]);
}

function render(c: Connection): void {
  if (document.activeElement !== server) server.value = c.server;
  if (c.token && c.needsReconnect) {
    status.textContent = `Your session on ${c.server} has ended. Press Connect to sign in again.`;
    status.className = 'warn';
    connect.textContent = 'Reconnect';
  } else if (c.token) {
    status.textContent = `Connected to ${c.server} as ${c.user?.email ?? 'your account'}.`;
    status.className = 'ok';
    connect.textContent = 'Connect';
  } else {
    status.textContent = notice || 'Not connected. Enter your server address and press Connect to sign in.';
    status.className = 'muted';
    connect.textContent = 'Connect';
  }
  disconnect.hidden = !c.token;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  error.textContent = '';
  const parsed = parseServerAddress(server.value);
  if ('error' in parsed) {
    error.textContent = parsed.error;
    server.setAttribute('aria-invalid', 'true');
    server.focus();
    return;
  }
  server.removeAttribute('aria-invalid');
  const { origin } = parsed;
  // Asked first and at once: browsers grant permissions only during the click itself.
  const permission = needsRelay(origin)
    ? chrome.permissions.request({ origins: [originPattern(origin)] })
    : Promise.resolve(true);
  void permission.then(
    async (granted) => {
      if (!granted) {
        error.textContent = `Linkwise needs access to ${origin} to receive your sign-in. Press Connect and allow it.`;
        return;
      }
      if (needsRelay(origin)) await registerRelay(origin);
      const before = await getConnection();
      // A token belongs to the server that issued it.
      const changed = before.server !== origin;
      await updateConnection({ server: origin, ...(changed && { token: null, user: null, needsReconnect: false }) });
      const params = new URLSearchParams({ ext: chrome.runtime.id, browser: BROWSER });
      await chrome.tabs.create({ url: `${origin}/extension/auth?${params.toString()}` });
    },
    (e: unknown) => {
      error.textContent = e instanceof Error ? e.message : String(e);
    },
  );
});

disconnect.addEventListener('click', () => {
  void (async () => {
    const c = await getConnection();
    disconnect.disabled = true;
    let note = '';
    try {
      // Revoke it on the server, so the token is gone from the account's sessions too.
      if (c.token && !c.needsReconnect) await clientFor(c).logout();
    } catch {
      note = ' The server could not be reached; the session stays in your account until it expires.';
    }
    notice = `Disconnected.${note}`;
    const next = await updateConnection({ token: null, user: null, needsReconnect: false });
    disconnect.disabled = false;
    render(next);
  })();
});

$<HTMLButtonElement>('change-shortcut').addEventListener('click', () => {
  if (BROWSER === 'chrome') void chrome.tabs.create({ url: 'chrome://extensions/shortcuts' });
  else {
    const commands = chrome.commands as typeof chrome.commands & { openShortcutSettings?: () => Promise<void> };
    if (commands.openShortcutSettings) void commands.openShortcutSettings();
  }
});

$<HTMLButtonElement>('retry').addEventListener('click', () => {
  void chrome.runtime.sendMessage({ type: 'flush' }).then(() => renderQueue());
});

async function renderQueue(): Promise<void> {
  const queue = await pendingSaves();
  $('queue-panel').hidden = queue.length === 0;
  $('queue-text').textContent =
    queue.length === 1 ? '1 saved page waits for the server.' : `${queue.length} saved pages wait for the server.`;
}

async function renderShortcut(): Promise<void> {
  const shortcut = await currentShortcut();
  $('shortcut').textContent = shortcut || 'not set';
  $('shortcut-help').textContent =
    BROWSER === 'chrome'
      ? 'Chrome and Edge let you change it under Extensions › Keyboard shortcuts.'
      : 'Firefox keeps Ctrl+Shift+H for its History window. Change the shortcut under Add-ons › ⚙ › Manage Extension Shortcuts.';
}

chrome.storage.onChanged.addListener((changes) => {
  if (changes.connection) void getConnection().then(render);
  if (changes.queue) void renderQueue();
});
void getConnection().then(render);
void renderQueue();
void renderShortcut();
