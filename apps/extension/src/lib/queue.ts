import { ApiError, type LinkCreateInput } from '@linkwise/contract';
import { connectedClient, isUnauthorized, isUnreachable } from './api.js';
import { isConnected } from './state.js';

/** A save the server could not take yet. Kept in storage.local, so a browser restart loses nothing. */
export interface PendingSave {
  id: string;
  body: LinkCreateInput;
  attempts: number;
  /** Epoch ms of the next attempt. */
  nextAt: number;
}

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

async function writeQueue(queue: PendingSave[]): Promise<void> {
  await chrome.storage.local.set({ queue });
  const next = Math.min(...queue.map((p) => p.nextAt));
  if (queue.length) await chrome.alarms.create(RETRY_ALARM, { when: Math.max(Date.now() + 1000, next) });
  else await chrome.alarms.clear(RETRY_ALARM);
}

/** Queues a save; a URL already waiting is not queued twice. */
export async function enqueue(body: LinkCreateInput, now = Date.now()): Promise<void> {
  const queue = await pendingSaves();
  if (queue.some((p) => p.body.url === body.url)) return;
  queue.push({ id: crypto.randomUUID(), body, attempts: 1, nextAt: now + backoff(1) });
  await writeQueue(queue);
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
  const keep: PendingSave[] = [];
  let reachable = true;
  for (const item of queue) {
    if (!reachable || (!force && item.nextAt > Date.now())) {
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
        result.failed.push({ url: item.body.url, message: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  // Saves queued while this flush ran are kept too.
  const latest = await pendingSaves();
  const handled = new Set(queue.map((p) => p.id));
  const merged = [...keep, ...latest.filter((p) => !handled.has(p.id))];
  await writeQueue(merged);
  return { ...result, left: merged.length };
}
