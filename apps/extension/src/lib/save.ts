import { ApiError, UrlSchema, type Link, type LinkCreateInput } from '@linkwise/contract';
import { connectedClient, isUnauthorized, isUnreachable } from './api.js';
import { accountOf, enqueue, flushQueue } from './queue.js';
import { isConnected, type Connection } from './state.js';

export type SaveOutcome =
  | { kind: 'saved'; link: Link }
  | { kind: 'already'; linkId: string }
  | { kind: 'queued' }
  | { kind: 'failed'; message: string; reason: 'not-connected' | 'reconnect' | 'limit' | 'invalid' | 'error' };

/** The short sentence shown in the page and on the badge's tooltip. */
export function outcomeText(outcome: SaveOutcome): string {
  switch (outcome.kind) {
    case 'saved':
      return 'Saved to Linkwise';
    case 'already':
      return 'Already saved in Linkwise';
    case 'queued':
      return 'Saved offline: it reaches Linkwise when the server is back';
    case 'failed':
      return outcome.message;
  }
}

/** A signed-out save waits in the queue for its account: reconnecting sends it (the token hand-off flushes). */
async function keptForReconnect(body: LinkCreateInput, connection: Connection): Promise<SaveOutcome> {
  await enqueue(body, accountOf(connection));
  return { kind: 'failed', reason: 'reconnect', message: RECONNECT_MESSAGE };
}

export const RECONNECT_MESSAGE = 'Your Linkwise session ended. Reconnect, and this page is saved then.';

/** Saves one page or link. A server that cannot be reached gets it later (the queue), never twice. */
export async function saveLink(body: LinkCreateInput): Promise<SaveOutcome> {
  const checked = UrlSchema.safeParse(body.url);
  if (!checked.success) {
    // A browser page or a file is not a web page; a web page too long to store, or with a password in
    // its address, is told so in the words the server would use.
    const webPage = /^https?:\/\//i.test(body.url.trim());
    const message = webPage ? checked.error.issues[0]?.message : undefined;
    return { kind: 'failed', reason: 'invalid', message: message ?? 'Only web pages (http and https) can be saved.' };
  }
  const { api, connection } = await connectedClient();
  if (!connection.token) {
    return { kind: 'failed', reason: 'not-connected', message: 'Connect Linkwise to your account first.' };
  }
  if (!isConnected(connection)) return keptForReconnect(body, connection);
  try {
    const link = await api.createLink({ body });
    // The server is back: whatever waited goes now.
    void flushQueue(true);
    return { kind: 'saved', link };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'DUPLICATE_LINK') {
      const linkId = error.details?.linkId;
      return { kind: 'already', linkId: typeof linkId === 'string' ? linkId : '' };
    }
    if (error instanceof ApiError && error.code === 'LINK_LIMIT_REACHED') {
      return { kind: 'failed', reason: 'limit', message: error.message };
    }
    if (isUnauthorized(error)) return keptForReconnect(body, connection);
    if (isUnreachable(error)) {
      await enqueue(body, accountOf(connection));
      return { kind: 'queued' };
    }
    return { kind: 'failed', reason: 'error', message: error instanceof Error ? error.message : 'Saving failed.' };
  }
}
