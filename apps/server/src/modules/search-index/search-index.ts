import { sql, type Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import { compare, drift, readInstalled, type Drift } from './catalog.js';
import { postgresSearchSchema, rebuildPostgres, suspendPostgres } from './schema.postgres.js';
import type { Kind, SearchSchema } from './schema-object.js';
import { rebuildSqlite, sqliteSearchSchema } from './schema.sqlite.js';

export type { Drift } from './catalog.js';

/** The search index's current definition on `engine`. */
export const searchSchema = (engine: Engine): SearchSchema =>
  engine === 'sqlite' ? sqliteSearchSchema : postgresSearchSchema;

/** Runs `fn` in the caller's transaction, or in a new one. */
function inTransaction<T>(db: Kysely<unknown>, fn: (trx: Kysely<unknown>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** What unexpected objects are dropped in: dependents before what they depend on. */
const DROP_ORDER: Kind[] = ['trigger', 'index', 'view', 'function', 'table'];
/** What is created together, the catalog read again between: a dropped table or function takes its triggers with it. */
const PHASES: Kind[][] = [
  ['column', 'table'],
  ['function', 'view'],
  ['index', 'trigger'],
];

/**
 * Brings the database's search index to the source's definition (`schema.sqlite.ts`,
 * `schema.postgres.ts`), in one transaction, and says what it did (nothing when already there):
 * - objects the index no longer has (on its own tables, or naming them) are dropped;
 * - a missing object is created; a different one is replaced (a function in place when only its
 *   body changed, anything else dropped and created; a table so replaced loses its rows);
 * - when an object what the index holds depends on was created or replaced (its tables, the
 *   definitions that compute its rows), the index is rebuilt from the links (`rebuildSearchIndex`).
 * A column the index adds to another table (`users.search_version`) is added when missing; one
 * that differs is an error, for a migration of its own to convert.
 */
export async function applySearchSchema<DB>(database: Kysely<DB>, engine: Engine): Promise<string[]> {
  const schema = searchSchema(engine);
  return inTransaction(database as Kysely<unknown>, async (db) => {
    const done: string[] = [];
    const run = async (statements: readonly string[]) => {
      for (const statement of statements) await sql.raw(statement).execute(db);
    };
    let rebuild = false;
    const { unexpected } = compare(schema, await readInstalled(db, engine, schema));
    for (const kind of DROP_ORDER) {
      for (const o of unexpected.filter((u) => u.kind === kind)) {
        await run([o.drop]);
        done.push(`dropped ${o.kind} ${o.name}`);
      }
    }
    for (const kinds of PHASES) {
      const { matched } = compare(schema, await readInstalled(db, engine, schema));
      for (const [o, now] of matched) {
        if (!kinds.includes(o.kind) || now?.installed === o.installed) continue;
        if (now && o.kind === 'column') {
          throw new Error(`column ${o.name} is "${now.installed}", the search index needs "${o.installed}"`);
        }
        // A function whose name, arguments and result stay is replaced in place (no dependents dropped).
        const header = (text: string) => text.slice(0, text.indexOf(' AS $function$'));
        if (now && !(o.kind === 'function' && header(now.installed) === header(o.installed))) await run([now.drop]);
        await run(o.create);
        done.push(`${now ? 'replaced' : 'created'} ${o.kind} ${o.name}`);
        rebuild ||= o.rebuild === true;
      }
    }
    if (rebuild) {
      await rebuildIndex(db, engine);
      done.push('rebuilt the index');
    }
    return done;
  });
}

const rebuildIndex = (db: Kysely<unknown>, engine: Engine) =>
  engine === 'sqlite' ? rebuildSqlite(db) : rebuildPostgres(db);

/**
 * Fills the search index from the links, replacing what it held (in the caller's transaction, or a
 * new one); on PostgreSQL, turns indexing back on after `suspendSearchIndexing`.
 */
export async function rebuildSearchIndex<DB>(db: Kysely<DB>, engine: Engine): Promise<void> {
  await inTransaction(db as Kysely<unknown>, (trx) => rebuildIndex(trx, engine));
}

/**
 * PostgreSQL: stops indexing links as they are written, for a bulk load that `rebuildSearchIndex`
 * then indexes once. SQLite: nothing (its triggers cannot be turned off; rows are indexed as they
 * arrive).
 */
export async function suspendSearchIndexing<DB>(db: Kysely<DB>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await suspendPostgres(db as Kysely<unknown>);
}

/**
 * Runs `write`, which inserts the links `linkIds` (and their tags, pages), in the caller's
 * transaction, and indexes those links once afterwards. On PostgreSQL row-by-row indexing of
 * inserts is off meanwhile for this transaction only (other writers index as usual): a link and
 * each of its tags would otherwise be indexed one after another. Every link `write` inserts, or
 * inserts tags or a page for, must be in `linkIds`. SQLite: `write` alone (its triggers index as
 * rows arrive, and cannot be turned off).
 */
export async function indexInBulk<DB>(
  db: Kysely<DB>,
  engine: Engine,
  linkIds: readonly string[],
  write: () => Promise<void>,
): Promise<void> {
  if (engine !== 'postgres' || linkIds.length === 0) return write();
  if (!db.isTransaction) throw new Error('indexInBulk runs in the caller’s transaction');
  await sql`select set_config('linkwise.search_bulk', 'on', true)`.execute(db);
  // A failed write leaves the transaction aborted: nothing it did (the switch included) commits.
  await write();
  await sql`select link_search_add(${[...linkIds]}::text[])`.execute(db);
}

/** Every difference between the database's search index and the source; none when in step. */
export function searchSchemaDrift<DB>(db: Kysely<DB>, engine: Engine): Promise<Drift[]> {
  return drift(db as Kysely<unknown>, engine, searchSchema(engine));
}
