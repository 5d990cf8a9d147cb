import { clientFor } from '../lib/api.js';
import { BROWSER, isLoopback, originPattern, parseServerAddress } from '../lib/env.js';
import { queueFor, settleRefused } from '../lib/queue.js';
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

for (const [id, retry] of [
  ['refused-retry', true],
  ['refused-dismiss', false],
] as const) {
  $<HTMLButtonElement>(id).addEventListener('click', () => {
    void (async () => {
      await settleRefused(await getConnection(), retry);
      if (retry) await chrome.runtime.sendMessage({ type: 'flush' });
      await renderQueue();
      // The panel is gone with the button: keep the keyboard on the page.
      if ($('refused-panel').hidden) status.focus();
    })();
  });
}

const pages = (n: number) => (n === 1 ? '1 saved page' : `${n} saved pages`);
const count = (n: number) => (n === 1 ? '1 page' : `${n} pages`);

async function renderQueue(): Promise<void> {
  const c = await getConnection();
  const { mine, others, refused } = await queueFor(c);
  $('queue-panel').hidden = mine.length === 0 && others.length === 0;
  $('queue-text').textContent = `${pages(mine.length)} ${mine.length === 1 ? 'waits' : 'wait'} for the server.`;
  $('queue-others').hidden = others.length === 0;
  $('queue-others').textContent =
    `${count(others.length)} saved while another account was connected ${others.length === 1 ? 'waits' : 'wait'}` +
    ' for it, and will be sent when that account connects again.';
  $('refused-panel').hidden = refused.length === 0;
  $('refused-text').textContent = `${count(refused.length)} saved offline could not be added to Linkwise:`;
  $('refused-list').replaceChildren(
    ...refused.map((r) => {
      const li = document.createElement('li');
      const url = document.createElement('span');
      url.className = 'url';
      url.textContent = r.body.url;
      li.append(url, document.createTextNode(` — ${r.message}`));
      return li;
    }),
  );
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
  if (changes.queue || changes.refused || changes.connection) void renderQueue();
});
void getConnection().then(render);
void renderQueue();
void renderShortcut();
