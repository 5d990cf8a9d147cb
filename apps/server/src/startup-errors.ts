import pg from 'pg';
import { ConfigError } from './config.js';

/** How long start-up waits for PostgreSQL to answer before saying it cannot reach it. */
export const DATABASE_CONNECT_TIMEOUT_MS = 15_000;

interface Where {
  /** `Database.describe`: the location without credentials. */
  database: string;
  dataDir: string;
  host?: string;
  port?: number;
}

type SystemError = Error & { code?: string; syscall?: string };

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

const DATA_DIR_CODES = new Set(['SQLITE_CANTOPEN', 'SQLITE_READONLY', 'EACCES', 'EPERM', 'EEXIST', 'ENOTDIR', 'EROFS']);

/**
 * What to tell the operator, in one line, when the database cannot be opened or migrated at start-up;
 * undefined for anything else (which keeps its stack: that is a bug, not a setting). Never shows the
 * password of DATABASE_URL: only `describe`.
 */
export function databaseProblem(error: unknown, where: Where): string | undefined {
  if (error instanceof ConfigError) return error.message;
  if (!(error instanceof Error)) return undefined;
  const { code } = error as SystemError;
  const postgres = where.database.startsWith('postgresql:');
  if (postgres) {
    const reason =
      (code && UNREACHABLE[code]) ??
      (/^(timeout expired|Connection terminated)/.test(error.message) ? 'no answer' : undefined);
    if (reason) {
      return `Cannot reach the database of DATABASE_URL (${where.database}): ${reason}. Check the address and that PostgreSQL is running there.`;
    }
    if (code === '3D000') {
      return `The database of DATABASE_URL (${where.database}) does not exist: create it (createdb) or correct DATABASE_URL.`;
    }
    if (code === '28P01' || code === '28000') {
      return `PostgreSQL refused the user or password of DATABASE_URL (${where.database}): ${error.message}.`;
    }
    if (code === '42501') {
      return `The user of DATABASE_URL may not create or change tables in ${where.database}: ${error.message}. Make it the database's owner.`;
    }
    return undefined;
  }
  if (code && DATA_DIR_CODES.has(code)) {
    return `DATA_DIR (${where.dataDir}) must be a folder this process can write: ${error.message}.`;
  }
  return undefined;
}

/** One line for a port or address the server cannot listen on; undefined for anything else. */
export function listenProblem(error: unknown, where: Where): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code } = error as SystemError;
  if (code === 'EADDRINUSE') {
    return `PORT ${where.port} on ${where.host} is already in use: stop what listens there or choose another PORT.`;
  }
  if (code === 'EACCES') {
    return `PORT ${where.port} needs privileges this process lacks: choose a PORT above 1023 (and put a proxy in front).`;
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `HOST ${where.host} is not an address of this machine: use 127.0.0.1, 0.0.0.0 or one of its addresses.`;
  }
  return undefined;
}

/**
 * Connects once, with a deadline, before anything else uses the pool: an address that accepts the
 * connection but never answers would otherwise keep start-up waiting without a word. (The pool
 * itself has no such deadline: there it would also bound a request's wait for a free connection.)
 */
export async function checkDatabaseReachable(url: string, timeoutMs = DATABASE_CONNECT_TIMEOUT_MS): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}
