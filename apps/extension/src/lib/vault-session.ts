import {
  ApiError,
  decryptCredential,
  unlockVault,
  VaultError,
  type ApiClient,
  type Link,
  type VaultKey,
} from '@linkwise/contract';
import { connectedClient } from './api.js';
import { fillLogin, type FillResult } from './fill-login.js';

/** The vault locks after this long without use (the web app's default auto-lock). */
export const VAULT_IDLE_MS = 15 * 60_000;
const LOCK_ALARM = 'linkwise-vault-lock';

/**
 * The unlocked vault key lives only in the background's memory: never in storage, so it is gone
 * when the browser closes, when the browser unloads an idle background, or after VAULT_IDLE_MS.
 */
let session: { key: VaultKey; userId: string; server: string; lastUsed: number } | null = null;

export function lockVault(): void {
  session = null;
  void chrome.alarms.clear(LOCK_ALARM);
}

function touch(): void {
  if (!session) return;
  session.lastUsed = Date.now();
  void chrome.alarms.create(LOCK_ALARM, { when: session.lastUsed + VAULT_IDLE_MS });
}

export function onLockAlarm(name: string): void {
  if (name === LOCK_ALARM && session && Date.now() - session.lastUsed >= VAULT_IDLE_MS - 1000) lockVault();
}

async function current(): Promise<{ api: ApiClient; server: string; unlocked: typeof session }> {
  const { api, connection } = await connectedClient();
  if (session && (session.server !== connection.server || Date.now() - session.lastUsed > VAULT_IDLE_MS)) lockVault();
  return { api, server: connection.server, unlocked: session };
}

/** Said when the server does not answer (or signed the extension out) while the vault is used. */
export const VAULT_UNREACHABLE = 'Linkwise cannot be reached right now. Try again in a moment.';

export async function unlock(masterPassword: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const { api, server } = await current();
  const answers = await Promise.all([api.getVault(), api.me()]).catch((error: unknown) =>
    error instanceof ApiError && error.status < 500 ? error : null,
  );
  if (!answers || answers instanceof ApiError) return { ok: false, error: answers?.message ?? VAULT_UNREACHABLE };
  const [{ data }, { user }] = answers;
  if (!data) return { ok: false, error: 'Set a master password in Linkwise first (Profile › Vault).' };
  try {
    session = { key: await unlockVault(masterPassword, data), userId: user.id, server, lastUsed: Date.now() };
    touch();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof VaultError ? error.message : 'The vault could not be unlocked.' };
  }
}

/** Links of this page's origin that carry credentials (what one-click login may offer here). */
async function linksForOrigin(api: ApiClient, origin: string): Promise<Link[]> {
  const found: Link[] = [];
  for (let page = 1; page <= 10; page++) {
    const list = await api.listLinks({ query: { hasCredentials: 'true', limit: 100, page } });
    for (const link of list.data) {
      if (URL.canParse(link.url) && new URL(link.url).origin === origin) found.push(link);
    }
    if (page * list.limit >= list.total) break;
  }
  return found;
}

export interface LoginChoice {
  linkId: string;
  credentialId: string;
  username: string;
  note: string;
}

/** What the popup shows: how many logins this site has, and their user names once unlocked. */
export async function loginsFor(pageUrl: string): Promise<{ count: number; locked: boolean; choices: LoginChoice[] }> {
  const { api, unlocked } = await current();
  if (!URL.canParse(pageUrl)) return { count: 0, locked: !unlocked, choices: [] };
  const links = await linksForOrigin(api, new URL(pageUrl).origin);
  const count = links.reduce((n, l) => n + l.credentials.length, 0);
  if (!unlocked || count === 0) return { count, locked: !unlocked, choices: [] };
  touch();
  const choices: LoginChoice[] = [];
  for (const link of links) {
    for (const encrypted of link.credentials) {
      const plain = await decryptCredential(
        unlocked.key,
        { userId: unlocked.userId, linkId: link.id },
        encrypted,
      ).catch(() => null);
      // Passwords stay here; the popup gets names only.
      if (plain) choices.push({ linkId: link.id, credentialId: plain.id, username: plain.username, note: plain.note });
    }
  }
  return { count, locked: false, choices };
}

/** Fills one credential into the tab, after checking the tab shows the credential's own origin. */
export async function fill(
  tabId: number,
  linkId: string,
  credentialId: string,
): Promise<FillResult | 'locked' | 'unreachable' | 'gone'> {
  const { api, unlocked } = await current();
  if (!unlocked) return 'locked';
  touch();
  const link = await api
    .getLink({ params: { id: linkId } })
    .catch((error: unknown) => (error instanceof ApiError && error.status === 404 ? ('gone' as const) : null));
  if (!link) return 'unreachable';
  if (link === 'gone') return 'gone';
  // Deleted in the web app since the popup listed it: saying so beats a vague refusal.
  const encrypted = link.credentials.find((c) => c.id === credentialId);
  if (!encrypted) return 'gone';
  const origin = new URL(link.url).origin;
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  // Without activeTab on that tab the browser hides its address: the user did not invoke us there.
  if (!tab?.url) return 'no-access';
  if (new URL(tab.url).origin !== origin) return 'origin-mismatch';
  const plain = await decryptCredential(unlocked.key, { userId: unlocked.userId, linkId }, encrypted);
  try {
    const [result] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      func: fillLogin,
      args: [origin, plain.username, plain.password],
    });
    return result?.result ?? 'no-access';
  } catch {
    return 'no-access';
  }
}
