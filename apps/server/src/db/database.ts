import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type LogEvent,
  type SqliteDatabase as SqliteDialectDatabase,
} from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL; unset selects the embedded SQLite file. */
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize: number;
  /** Called for every executed statement (query counting in tests, slow-query logging). */
  onQuery?: (event: LogEvent) => void;
  /**
   * PostgreSQL only: an idle pooled connection failed (server restart, connection terminated by an
   * administrator). The pool drops that connection and opens a new one on demand; without a
   * listener the error would crash the process. Default: one line on stderr.
   */
  onConnectionError?: (error: Error) => void;
}

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /** Human-readable location without credentials, for logs. */
  describe: string;
  /**
   * PostgreSQL only: calls `onMessage` with each NOTIFY's payload on `channel`, over a connection of
   * its own that reconnects after a failure (and then once without a payload: whatever was sent while
   * no one listened is lost). Resolves to a function that stops listening.
   */
  listen?(channel: string, onMessage: (payload?: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** LISTEN on a dedicated connection (a pooled one would be handed to queries), reconnecting with backoff. */
async function listenOn(
  url: string,
  channel: string,
  onMessage: (payload?: string) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = 500;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, application_name: 'linkwise-listen' });
    next.on('notification', (message) => onMessage(message.payload));
    next.on('error', () => undefined);
    next.on('end', () => {
      if (stopped) return;
      client = undefined;
      retry = setTimeout(() => void connect().catch(() => undefined), delay);
      retry.unref();
      delay = Math.min(delay * 2, 30_000);
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    client = next;
    delay = 500;
    // Whatever was enqueued while no one listened is found now.
    onMessage();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/** pg returns int8 (bigint, count(*)) as strings; ours are epoch millis and counts, safe as numbers. */
const INT8_OID = 20;
const parseInt8 = (value: string) => Number(value);
const builtinParser = pg.types.getTypeParser.bind(pg.types) as (
  oid: number,
  format: 'text',
) => (value: string) => unknown;
const pgTypes = {
  getTypeParser: (oid: number, format: 'text' | 'binary' = 'text') =>
    oid === INT8_OID ? parseInt8 : builtinParser(oid, format as 'text'),
};

/** Open the configured engine. SQLite: DATA_DIR/linkwise.db; PostgreSQL: DATABASE_URL. */
export function openDatabase(options: DatabaseOptions): Database {
  const log = options.onQuery ? (event: LogEvent) => options.onQuery?.(event) : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize,
      types: pgTypes,
      application_name: 'linkwise',
    });
    pool.on(
      'error',
      options.onConnectionError ??
        ((error) => console.error(`database: an idle connection failed and was dropped (${error.message})`)),
    );
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
    const url = new URL(options.databaseUrl);
    return {
      db,
      engine: 'postgres',
      describe: `postgresql://${url.hostname}:${url.port || 5432}${url.pathname}`,
      listen: (channel, onMessage) => listenOn(options.databaseUrl!, channel, onMessage),
      close: () => db.destroy(),
    };
  }

  mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'linkwise.db');
  // Loaded only for the embedded engine: a PostgreSQL process never maps the native addon.
  const Sqlite = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;
  const fresh = !existsSync(file);
  const sqlite = new Sqlite(file);
  // Password and token hashes live here: a new database is the service user's alone (its WAL and
  // shared-memory files take the same mode). An existing file keeps the mode its operator gave it.
  if (fresh) chmodSync(file, 0o600);
  // WAL lets readers run beside the writer; FULL makes every acknowledged write survive power loss.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('cache_size = -65536');
  // SQLite's built-in lower() folds ASCII only; PostgreSQL's folds all of Unicode. Replacing it
  // makes case-insensitive matching and the title sort key (a generated column) agree on both.
  sqlite.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLocaleLowerCase('en-US') : value,
  );
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log });
  return {
    db,
    engine: 'sqlite',
    describe: `sqlite:${file}`,
    close: async () => {
      await db.destroy();
    },
  };
}

/** Kysely's SQLite dialect prepares every statement anew; the app runs a few hundred distinct ones. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Reuses prepared statements by SQL text (least recently used dropped first). better-sqlite3 runs a
 * statement to completion before returning, so one statement object is never in use twice at once.
 * Preparing costs about as much as running a small indexed query (bench/RESULTS.md).
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (text: string) => {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}
