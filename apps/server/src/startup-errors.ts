import pg from 'pg';
import { ConfigError, type Config } from './config.js';
import { openDatabase, type Database, type Engine } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';

/** How long start-up waits for PostgreSQL to answer before saying it cannot reach it. */
const DATABASE_CONNECT_TIMEOUT_MS = 15_000;

interface DatabaseWhere {
  engine: Engine;
  /** `Database.describe`: the location without credentials. */
  database: string;
  dataDir: string;
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
export function databaseProblem(error: unknown, where: DatabaseWhere): string | undefined {
  if (error instanceof ConfigError) return error.message;
  if (!(error instanceof Error)) return undefined;
  const { code } = error as SystemError;
  if (where.engine === 'postgres') {
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
export function listenProblem(error: unknown, where: { host: string; port: number }): string | undefined {
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

/** How long a start-up waits on the database's migration before it says so. */
const MIGRATION_PATIENCE_MS = 10_000;
export const MIGRATION_WAIT =
  'Still bringing the database up to date: a large library takes a while, or another instance is doing it and this one waits for it.';

/**
 * The configured database, reached and migrated: what the server and the command-line scripts open
 * first. A database it cannot reach, or a data folder it cannot write, is a ConfigError of one line.
 */
export async function openMigrated(
  config: Pick<Config, 'DATABASE_URL' | 'dataDir'>,
  poolSize: number,
  { notify = (line: string) => console.error(line), patienceMs = MIGRATION_PATIENCE_MS } = {},
): Promise<{ database: Database; applied: string[] }> {
  const engine: Engine = config.DATABASE_URL ? 'postgres' : 'sqlite';
  let database: Database | undefined;
  try {
    database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize });
    if (config.DATABASE_URL) await checkDatabaseReachable(config.DATABASE_URL);
    // A start that seems stuck says why it waits: a long migration, or another instance's.
    const slow = setTimeout(() => notify(MIGRATION_WAIT), patienceMs);
    try {
      return { database, applied: await migrateToLatest(database) };
    } finally {
      clearTimeout(slow);
    }
  } catch (error) {
    await database?.close().catch(() => undefined);
    const problem = databaseProblem(error, {
      engine,
      database: database?.describe ?? `${engine}:`,
      dataDir: config.dataDir,
    });
    throw problem ? new ConfigError(problem) : error;
  }
}
