import { ApiError, type LinkCreateInput } from '@linkwise/contract';
import { connectedClient, isUnauthorized, isUnreachable } from './api.js';
import { isConnected, type Connection } from './state.js';

/** A save the server could not take yet. Kept in storage.local, so a browser restart loses nothing. */
export interface PendingSave {
  id: string;
  body: LinkCreateInput;
  attempts: number;
  /** Epoch ms of the next attempt. */
  nextAt: number;
  /** Whose save it is (`accountOf`): it goes to that account only. Missing on saves queued before. */
  account?: string;
}

/** A queued save the server refused when it came back (say, the plan's limit): kept until dismissed. */
export interface RefusedSave {
  id: string;
  /** The save as it was made (title, tags, notes typed in the popup): Try again sends it again. */
  body: LinkCreateInput;
  message: string;
  account?: string;
}

/** The account a save belongs to: the server and the signed-in user. */
export const accountOf = (c: Pick<Connection, 'server' | 'user'>): string => `${c.user?.email ?? ''} on ${c.server}`;

const isFor = (account: string) => (p: { account?: string }) => p.account === undefined || p.account === account;

export const RETRY_ALARM = 'linkwise-retry';
const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 30 * 60_000;

/** 30 s, 1 min, 2 min … capped at 30 min, with ±20 % jitter so many browsers do not return at once. */
export function backoff(attempts: number, random = Math.random()): number {
  const delay = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(delay * (0.8 + 0.4 * random));
}

export async function pendingSaves(): Promise<PendingSave[]> {
  const stored = await chrome.storage.local.get<{ queue?: PendingSave[] }>('queue');
  return stored.queue ?? [];
}

/** Stores the queue; retries are scheduled for `account`'s saves only (the others wait for their account). */
async function writeQueue(queue: PendingSave[], account: string): Promise<void> {
  await chrome.storage.local.set({ queue });
  const due = queue.filter(isFor(account));
  const next = Math.min(...due.map((p) => p.nextAt));
  if (due.length) await chrome.alarms.create(RETRY_ALARM, { when: Math.max(Date.now() + 1000, next) });
  else await chrome.alarms.clear(RETRY_ALARM);
}

/** Queues a save of `account`; a URL already waiting for it is not queued twice. */
export async function enqueue(body: LinkCreateInput, account: string, now = Date.now()): Promise<void> {
  const queue = await pendingSaves();
  if (queue.some((p) => p.body.url === body.url && isFor(account)(p))) return;
  queue.push({ id: crypto.randomUUID(), body, attempts: 1, nextAt: now + backoff(1), account });
  await writeQueue(queue, account);
}

export async function refusedSaves(): Promise<RefusedSave[]> {
  const stored = await chrome.storage.local.get<{ refused?: RefusedSave[] }>('refused');
  return stored.refused ?? [];
}

/** The queue as the connected account sees it: its own saves, and how many wait for other accounts. */
export async function queueFor(c: Pick<Connection, 'server' | 'user'>): Promise<{
  mine: PendingSave[];
  others: PendingSave[];
  refused: RefusedSave[];
}> {
  const mine = isFor(accountOf(c));
  const queue = await pendingSaves();
  return {
    mine: queue.filter(mine),
    others: queue.filter((p) => !mine(p)),
    refused: (await refusedSaves()).filter(mine),
  };
}

/** Drops the refused saves of this account (Dismiss), or queues them again first (Try again). */
export async function settleRefused(c: Pick<Connection, 'server' | 'user'>, retry: boolean): Promise<void> {
  const account = accountOf(c);
  const refused = await refusedSaves();
  const mine = refused.filter(isFor(account));
  await chrome.storage.local.set({ refused: refused.filter((r) => !isFor(account)(r)) });
  if (retry) for (const r of mine) await enqueue(r.body, account);
}

export interface FlushResult {
  sent: number;
  left: number;
  failed: { url: string; message: string }[];
}

let running: Promise<FlushResult> | null = null;

/**
 * Sends the queued saves that are due (all of them with `force`). One flush at a time: two would
 * both send the same entry. A duplicate answer counts as done, so a save whose answer was lost on
 * the way is never doubled; an entry leaves the queue only on an answer from the server.
 */
export function flushQueue(force = false): Promise<FlushResult> {
  running ??= flush(force).finally(() => {
    running = null;
  });
  return running;
}

async function flush(force: boolean): Promise<FlushResult> {
  const result: FlushResult = { sent: 0, left: 0, failed: [] };
  const { api, connection } = await connectedClient();
  const queue = await pendingSaves();
  if (!queue.length || !isConnected(connection)) return { ...result, left: queue.length };
  const account = accountOf(connection);
  const keep: PendingSave[] = [];
  const refused: RefusedSave[] = [];
  let reachable = true;
  for (const item of queue) {
    // Another account's saves wait for it: the server must never file them under this one.
    if (!reachable || !isFor(account)(item) || (!force && item.nextAt > Date.now())) {
      keep.push(item);
      continue;
    }
    try {
      await api.createLink({ body: item.body });
      result.sent++;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'DUPLICATE_LINK') {
        result.sent++;
      } else if (isUnreachable(error) || isUnauthorized(error)) {
        // Still down (or signed out): the rest would fail the same way; try again later.
        reachable = false;
        keep.push({ ...item, attempts: item.attempts + 1, nextAt: Date.now() + backoff(item.attempts + 1) });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        result.failed.push({ url: item.body.url, message });
        refused.push({ id: item.id, body: item.body, message, account });
      }
    }
  }
  // Saves queued while this flush ran are kept too.
  const latest = await pendingSaves();
  const handled = new Set(queue.map((p) => p.id));
  const merged = [...keep, ...latest.filter((p) => !handled.has(p.id))];
  await writeQueue(merged, account);
  // Refused saves stay in sight (badge, options page) until the user dismisses or retries them.
  if (refused.length > 0) await chrome.storage.local.set({ refused: [...(await refusedSaves()), ...refused] });
  return { ...result, left: merged.length };
}
