import type { User } from '@linkwise/contract';
import { DEFAULT_SERVER } from './env.js';

/** What the extension keeps between browser sessions (chrome.storage.local). */
export interface Connection {
  server: string;
  token: string | null;
  user: Pick<User, 'email' | 'username'> | null;
  /** The server answered 401 to the stored token: the popup offers Reconnect. */
  needsReconnect: boolean;
  /** The welcome page was shown once (on install, or at the first connection). */
  welcomed: boolean;
}

const DEFAULTS: Connection = {
  server: DEFAULT_SERVER,
  token: null,
  user: null,
  needsReconnect: false,
  welcomed: false,
};

export async function getConnection(): Promise<Connection> {
  const stored = await chrome.storage.local.get<{ connection?: Partial<Connection> }>('connection');
  return { ...DEFAULTS, ...stored.connection };
}

export async function updateConnection(patch: Partial<Connection>): Promise<Connection> {
  const next = { ...(await getConnection()), ...patch };
  await chrome.storage.local.set({ connection: next });
  return next;
}

export const isConnected = (c: Connection) => c.token !== null && !c.needsReconnect;
