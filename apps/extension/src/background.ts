// The extension's background: keyboard command, context menu, the offline queue's retries, and the
// hand-off of the token from the server's sign-in page. A service worker on Chrome, an event page on
// Firefox: nothing here may rely on memory surviving between events except the vault key.
import { EXTENSION_TOKEN_MESSAGE, UserSchema } from '@linkwise/contract';
import { z } from 'zod';
import { clientFor } from './lib/api.js';
import { BROWSER, SAVE_COMMAND } from './lib/env.js';
import { showPageToast } from './lib/page-toast.js';
import { RETRY_ALARM, flushQueue, queueFor } from './lib/queue.js';
import { outcomeText, saveLink, type SaveOutcome } from './lib/save.js';
import { getConnection, updateConnection } from './lib/state.js';
import { fill, lockVault, loginsFor, onLockAlarm, unlock } from './lib/vault-session.js';
import { welcomeUrl } from './lib/welcome.js';

const MENU_LINK = 'save-link';
const MENU_PAGE = 'save-page';

const BADGES: Record<SaveOutcome['kind'], { text: string; color: string }> = {
  saved: { text: '✓', color: '#15803d' },
  already: { text: '✓', color: '#4338ca' },
  queued: { text: '…', color: '#b45309' },
  failed: { text: '!', color: '#b91c1c' },
};

async function showOutcome(tabId: number | undefined, outcome: SaveOutcome): Promise<void> {
  const text = outcomeText(outcome);
  const badge = BADGES[outcome.kind];
  if (tabId !== undefined) {
    await chrome.action.setBadgeBackgroundColor({ tabId, color: badge.color });
    await chrome.action.setBadgeText({ tabId, text: badge.text });
    await chrome.action.setTitle({ tabId, title: `Linkwise: ${text}` });
    const tone = outcome.kind === 'failed' ? 'error' : outcome.kind === 'saved' ? 'ok' : 'info';
    // Pages the browser protects (its own settings, the web store) refuse scripts: the badge says it.
    await chrome.scripting
      .executeScript({ target: { tabId }, func: showPageToast, args: [text, tone] })
      .catch(() => undefined);
  }
  if (outcome.kind === 'failed' && outcome.reason === 'not-connected') await chrome.runtime.openOptionsPage();
}

/** The page (or link) the user asked to save, with what is known of it. */
async function save(tabId: number | undefined, url: string | undefined, title?: string): Promise<SaveOutcome> {
  if (tabId !== undefined) {
    await chrome.action.setBadgeBackgroundColor({ tabId, color: '#64748b' });
    await chrome.action.setBadgeText({ tabId, text: '…' });
  }
  const outcome = await saveLink({ url: url ?? '', ...(title?.trim() && { title: title.trim().slice(0, 500) }) });
  await showOutcome(tabId, outcome);
  return outcome;
}

async function activeTab(): Promise<chrome.tabs.Tab | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab;
}

async function onCommand(command: string, tab?: chrome.tabs.Tab): Promise<SaveOutcome | undefined> {
  if (command !== SAVE_COMMAND) return undefined;
  const target = tab?.url ? tab : await activeTab();
  return save(target?.id, target?.url, target?.title);
}

async function onMenuClick(info: chrome.contextMenus.OnClickData, tab?: chrome.tabs.Tab): Promise<SaveOutcome> {
  if (info.menuItemId === MENU_LINK) {
    // Firefox tells the link's text; Chrome does not, and the server's analysis finds a title.
    const text = (info as { linkText?: string }).linkText;
    return save(tab?.id, info.linkUrl, text);
  }
  return save(tab?.id, info.pageUrl ?? tab?.url, tab?.title);
}

function createMenus(): void {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({ id: MENU_LINK, title: 'Save link to Linkwise', contexts: ['link'] });
    chrome.contextMenus.create({ id: MENU_PAGE, title: 'Save page to Linkwise', contexts: ['page'] });
  });
}

/** Opens the welcome page on the server when it answers, else the options page to set one up. */
async function welcome(): Promise<void> {
  const connection = await getConnection();
  try {
    const res = await fetch(`${connection.server}/api/health`, { signal: AbortSignal.timeout(3000) });
    if (!res.ok) throw new Error(`health ${res.status}`);
    await updateConnection({ welcomed: true });
    await chrome.tabs.create({ url: await welcomeUrl(connection.server) });
  } catch {
    await chrome.runtime.openOptionsPage();
  }
}

const TokenMessageSchema = z.object({
  type: z.literal(EXTENSION_TOKEN_MESSAGE),
  token: z.string().min(16).max(512),
});

/**
 * The token arrives from the sign-in page of the server the user chose, and only from there: a
 * page of another origin cannot connect the extension to an account of its choosing.
 */
async function receiveToken(message: unknown, senderOrigin: string | undefined): Promise<{ ok: boolean }> {
  const parsed = TokenMessageSchema.safeParse(message);
  const connection = await getConnection();
  if (!parsed.success || !senderOrigin || senderOrigin !== connection.server) return { ok: false };
  const { token } = parsed.data;
  try {
    const { user } = await clientFor({ ...connection, token, needsReconnect: false }).me();
    const checked = UserSchema.pick({ email: true, username: true }).parse(user);
    await updateConnection({ token, user: checked, needsReconnect: false });
  } catch {
    return { ok: false };
  }
  await refreshGlobalBadge();
  void flushQueue(true);
  if (!connection.welcomed) {
    await updateConnection({ welcomed: true });
    await chrome.tabs.create({ url: await welcomeUrl(connection.server) });
  }
  return { ok: true };
}

const senderOrigin = (sender: chrome.runtime.MessageSender) =>
  sender.origin ?? (sender.url ? new URL(sender.url).origin : undefined);

/**
 * A signed-out extension, or offline saves the server refused, say so on its icon everywhere, not
 * only when the next save fails.
 */
async function refreshGlobalBadge(): Promise<void> {
  const connection = await getConnection();
  const { refused } = await queueFor(connection);
  const problem =
    connection.token && connection.needsReconnect
      ? 'reconnect to keep saving'
      : refused.length > 0
        ? `${refused.length === 1 ? '1 page' : `${refused.length} pages`} saved offline could not be added (see Options)`
        : null;
  await chrome.action.setBadgeBackgroundColor({ color: '#b91c1c' });
  await chrome.action.setBadgeText({ text: problem ? '!' : '' });
  await chrome.action.setTitle({ title: problem ? `Linkwise: ${problem}` : 'Linkwise' });
}

const PopupMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('save'), tabId: z.number().int().optional(), body: z.looseObject({ url: z.string() }) }),
  z.object({ type: z.literal('flush') }),
  z.object({ type: z.literal('vault-unlock'), password: z.string().min(1).max(1024) }),
  z.object({ type: z.literal('vault-lock') }),
  z.object({ type: z.literal('logins'), url: z.string() }),
  z.object({ type: z.literal('fill'), tabId: z.number().int(), linkId: z.string(), credentialId: z.string() }),
]);

async function onExtensionMessage(message: unknown, tabId: number | undefined): Promise<unknown> {
  const parsed = PopupMessageSchema.safeParse(message);
  if (!parsed.success) return undefined;
  const m = parsed.data;
  switch (m.type) {
    case 'flush':
      return flushQueue(true);
    case 'vault-unlock':
      return unlock(m.password);
    case 'vault-lock':
      lockVault();
      return { ok: true };
    case 'logins':
      return loginsFor(m.url);
    case 'fill':
      return fill(m.tabId, m.linkId, m.credentialId);
    case 'save': {
      const outcome = await saveLink(m.body);
      await showOutcome(m.tabId ?? tabId, outcome);
      return outcome;
    }
  }
}

chrome.runtime.onInstalled.addListener((details) => {
  createMenus();
  if (details.reason === 'install') void welcome();
});
chrome.runtime.onStartup.addListener(() => void flushQueue().then(refreshGlobalBadge));
chrome.commands.onCommand.addListener((command, tab) => void onCommand(command, tab));
chrome.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info, tab));
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RETRY_ALARM) void flushQueue();
  onLockAlarm(alarm.name);
});
chrome.storage.onChanged.addListener((changes) => {
  if (changes.connection || changes.refused) void refreshGlobalBadge();
});
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  const fromExtension = sender.id === chrome.runtime.id && !sender.tab?.url?.startsWith('http');
  const pageOrigin = senderOrigin(sender);
  const extensionOrigin = new URL(chrome.runtime.getURL('/')).origin;
  const work =
    fromExtension && pageOrigin === extensionOrigin
      ? onExtensionMessage(message, undefined)
      : receiveToken(message, pageOrigin);
  void work.then(sendResponse, () => sendResponse(undefined));
  return true;
});
if (BROWSER === 'chrome') {
  // Chrome: the sign-in page on a loopback server messages us directly (externally_connectable).
  chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
    void receiveToken(message, senderOrigin(sender)).then(sendResponse, () => sendResponse({ ok: false }));
    return true;
  });
}

// The e2e suite drives these directly: automation cannot press a browser's own shortcuts headless.
Object.assign(globalThis, { __linkwise: { onCommand, onMenuClick, flushQueue, refreshGlobalBadge, fill } });
