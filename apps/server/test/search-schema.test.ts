import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, type Link } from '@linkwise/contract';
import SqliteDatabase from 'better-sqlite3';
import { Migrator, sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database, type Engine } from '../src/db/database.js';
import * as m0001 from '../src/db/migrations/0001-initial.js';
import * as m0002 from '../src/db/migrations/0002-link-counts.js';
import * as m0003 from '../src/db/migrations/0003-vault.js';
import * as platformMigration from '../src/db/migrations/0011-platform.js';
import { migrateToLatest, migrationNames } from '../src/db/migrator.js';
import type { DB } from '../src/db/schema.js';
import { SearchRepository } from '../src/modules/search/search.repository.js';
import { searchTerms } from '../src/modules/search-index/text-query.js';
import { vectorBytes } from '../src/modules/embeddings/vector-bytes.js';
import { catalogForm, functionForm } from '../src/modules/search-index/schema.postgres.js';
import { sqliteForm } from '../src/modules/search-index/schema.sqlite.js';
import { applySearchSchema, searchSchema, searchSchemaDrift } from '../src/modules/search-index/search-index.js';
import { engines, startServer, type TestServer } from './harness.js';
import { createTestDatabase, wordCountDrift } from './pg.js';

/**
 * The search index is defined once per engine (`modules/search-index`). A migrated database holds
 * exactly those definitions, whichever way it got there: fresh, or through the development chain
 * 0004–0010 that was squashed into 0004 (rebuilt here from a snapshot of what it left).
 */

/** The catalog's own text of each object the source defines, read here without `catalog.ts`. */
async function catalogText(db: Kysely<DB>, engine: Engine, kind: string, name: string): Promise<string | undefined> {
  if (engine === 'sqlite') {
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = ${name}`.execute(db);
    return rows[0] && sqliteForm(rows[0].sql);
  }
  const query =
    kind === 'function'
      ? sql<{ def: string }>`select pg_get_functiondef(oid) as def from pg_proc
          where proname = ${name} and pronamespace = current_schema()::regnamespace`
      : kind === 'trigger'
        ? sql<{ def: string }>`select pg_get_triggerdef(oid) as def from pg_trigger where tgname = ${name}`
        : sql<{
            def: string;
          }>`select indexdef as def from pg_indexes where indexname = ${name} and schemaname = current_schema()`;
  const { rows } = await query.execute(db);
  if (rows.length !== 1) return undefined;
  return kind === 'function' ? functionForm(rows[0]!.def, 'public') : catalogForm(rows[0]!.def, 'public');
}

describe.each(engines())('the search index on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  it('is, once migrated, exactly what the source defines', async () => {
    const { db } = server.database;
    expect(await searchSchemaDrift(db, engine)).toEqual([]);
    const objects = searchSchema(engine).objects;
    // Functions, triggers, indexes (PostgreSQL) and every object but the column (SQLite), as the
    // catalog writes them, whitespace normalised.
    const checked = objects.filter((o) =>
      engine === 'sqlite' ? o.kind !== 'column' : ['function', 'trigger', 'index'].includes(o.kind),
    );
    expect(checked.length).toBeGreaterThanOrEqual(20);
    for (const o of checked)
      expect(await catalogText(db, engine, o.kind, o.name), `${o.kind} ${o.name}`).toBe(o.installed);
    if (engine === 'postgres') {
      // Ids in line whatever a row holds, the document out of line, the ranking vector in line
      // (decision 0004 §1, §11).
      const { rows } = await sql<{ name: string; storage: string }>`
        select attname as name, attstorage as storage from pg_attribute
        where attrelid = 'link_search'::regclass and attnum > 0 and not attisdropped order by attnum`.execute(db);
      expect(rows).toEqual([
        { name: 'link_id', storage: 'p' },
        { name: 'user_id', storage: 'p' },
        { name: 'document', storage: 'e' },
        { name: 'rank_document', storage: 'm' },
        { name: 'words', storage: 'x' },
      ]);
    }
    // Applying the source again finds nothing to do.
    expect(await applySearchSchema(db, engine)).toEqual([]);
  });

  it('finds a definition changed, added or dropped outside the source, and applying the source undoes it', async () => {
    const { db } = server.database;
    const { api, userId } = await server.signUp('drift');
    const link = await api.createLink({ body: { url: 'https://drift.example/a', title: 'Glacier tongues' } });
    if (engine === 'sqlite') {
      await sql`drop trigger tags_words_insert`.execute(db);
      await sql`create trigger tags_words_insert after insert on tags begin select 1; end`.execute(db);
      await sql`create index search_docs_extra on search_docs (link_id, rowid)`.execute(db);
      await sql`drop index search_vector_log_user_seq`.execute(db);
    } else {
      await sql`create or replace function search_words_of(p text) returns setof text language sql immutable as $$
        select distinct w from regexp_split_to_table(coalesce(p, ''), '[^[:alnum:]]+') w where length(w) >= 4
      $$`.execute(db);
      await sql`create index link_search_extra on link_search (words)`.execute(db);
      await sql`drop index search_vector_log_user_seq`.execute(db);
    }
    const changed = engine === 'sqlite' ? 'trigger tags_words_insert' : 'function search_words_of';
    const extra = engine === 'sqlite' ? 'index search_docs_extra' : 'index link_search_extra';
    expect((await searchSchemaDrift(db, engine)).map((d) => `${d.problem} ${d.kind} ${d.name}`).sort()).toEqual(
      [`different ${changed}`, `missing index search_vector_log_user_seq`, `unexpected ${extra}`].sort(),
    );
    const done = await applySearchSchema(db, engine);
    expect(done).toEqual(
      expect.arrayContaining([`dropped ${extra}`, `replaced ${changed}`, 'created index search_vector_log_user_seq']),
    );
    // A function that computes the index changed: the index is rebuilt (a trigger's is not).
    expect(done.includes('rebuilt the index')).toBe(engine === 'postgres');
    expect(await searchSchemaDrift(db, engine)).toEqual([]);
    const repo = new SearchRepository(db, engine);
    expect(await repo.textHits(userId, searchTerms('glacier tong'), null, 100)).toEqual([link.id]);
    expect((await repo.spellings(userId, ['g', 't'], 1)).sort()).toEqual(['glacier', 'tongues']);
  });
});

/** The migrations before the search index, as a database that ran them has them. */
const BEFORE_SEARCH = { '0001-initial': m0001, '0002-link-counts': m0002, '0003-vault': m0003 };

/**
 * A database as main at 198c5a4 left it: 0001–0003 run by their code, then what 0004–0010 added
 * (a snapshot of it, test/fixtures/search-0010.*.sql), those marked as run.
 */
async function databaseAt0010(engine: Engine): Promise<{ open: () => Database; drop: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkwise-0010-'));
  const pgDatabase = engine === 'postgres' ? await createTestDatabase() : undefined;
  const open = () => openDatabase({ databaseUrl: pgDatabase?.url, dataDir: dir, poolSize: 4 });
  const database = open();
  const migrator = new Migrator({
    db: database.db,
    provider: {
      getMigrations: () =>
        Promise.resolve(
          Object.fromEntries(
            Object.entries(BEFORE_SEARCH).map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, engine) }]),
          ),
        ),
    },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  expect(error).toBeUndefined();
  const later = migrationNames.filter((n) => n >= '0004' && n < '0011');
  expect(later).toHaveLength(7);
  for (const name of later) {
    await sql`insert into schema_migrations (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
      database.db,
    );
  }
  await database.close();
  const snapshot = readFileSync(fileURLToPath(new URL(`fixtures/search-0010.${engine}.sql`, import.meta.url)), 'utf8');
  if (pgDatabase) {
    const client = new pg.Client({ connectionString: pgDatabase.url });
    await client.connect();
    await client.query(snapshot);
    await client.end();
  } else {
    const raw = new SqliteDatabase(path.join(dir, 'linkwise.db'));
    raw.exec(snapshot);
    raw.close();
  }
  // The job platform's migration touches no search object; today's app writes its columns.
  const withJobs = open();
  await platformMigration.up(withJobs.db as Kysely<unknown>);
  await sql`insert into schema_migrations (name, timestamp) values ('0011-platform', ${new Date().toISOString()})`.execute(
    withJobs.db,
  );
  await withJobs.close();
  return {
    open,
    drop: async () => {
      await pgDatabase?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The real server over `database`, as it ran before the migration (the app does not migrate). */
async function serve(database: Database) {
  const config = loadConfig({
    DATA_DIR: tmpdir(),
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  });
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const client = (token?: string) => createApiClient({ baseUrl: `http://127.0.0.1:${port}`, getToken: () => token });
  const signUp = async (name: string) => {
    const { token, user } = await client().register({
      body: { email: `${name}@example.com`, username: name, password: 'correct horse' },
    });
    return { api: client(token), userId: user.id };
  };
  return { app, signUp };
}

const QUERIES = [
  'kubernetes',
  'kub',
  'deploym',
  'fresh pa',
  'devops',
  'otztal',
  'trailword1499',
  'switchb',
  'zero',
  'k8s',
];

/** What search answers for the user: text hits in both plans, the spellings for typos, the vector log. */
async function answers(db: Kysely<DB>, engine: Engine, userId: string) {
  const repo = new SearchRepository(db, engine);
  const hits: Record<string, string[][]> = {};
  for (const q of QUERIES) {
    hits[q] = [
      await repo.textHits(userId, searchTerms(q), null, 100, 1),
      await repo.textHits(userId, searchTerms(q), null, 100, 1_000_000),
    ];
  }
  const letters = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
  const version = await repo.version(userId);
  return {
    hits,
    spellings: (await repo.spellings(userId, letters, 1)).sort(),
    everyonesSpellings: (await repo.spellings(userId, letters, 1_000_000)).sort(),
    version,
    changes: await repo.vectorChanges(userId, 'm', 0, version),
  };
}

describe.each(engines())('a database migrated by 0001–0010 before they were squashed, on %s', (engine) => {
  it('migrates to the source, and search answers as it did', async () => {
    const old = await databaseAt0010(engine);
    const database = old.open();
    const { db } = database;
    try {
      const { app, signUp } = await serve(database);
      // Saved before the migration: the development chain's triggers indexed them.
      const owner = await signUp('owner');
      let links: Link[] = [];
      try {
        for (const body of [
          { url: 'https://k8s.example/a', title: 'Kubernetes networking explained', tags: ['devops', 'Ötztal'] },
          { url: 'https://k8s.example/b', title: 'Deploying to Kubernetes', description: 'Zero-downtime deployments' },
          { url: 'https://food.example/c', title: 'Fresh pasta', notes: 'kubernetes of the kitchen' },
          { url: 'https://run.example/d', title: 'Running your first marathon', category: 'Sport' },
          { url: 'https://k8s.example/e', title: 'Kubernetes deployments' },
        ]) {
          links.push(await owner.api.createLink({ body }));
        }
        const other = await signUp('other');
        await other.api.createLink({ body: { url: 'https://k8s.example/x', title: 'Kubernetes at scale' } });
        const text = `Switchbacks and altitude ${Array.from({ length: 1500 }, (_, i) => `trailword${i}`).join(' ')}`;
        await sql`insert into page_contents (link_id, text, fetched_at) values (${links[3]!.id}, ${text}, 0)`.execute(
          db,
        );
        await sql`insert into embeddings (link_id, model, dims, vector, created_at)
          values (${links[0]!.id}, 'm', 2, ${vectorBytes(Float32Array.from([0.6, 0.8]))}, 0)`.execute(db);
        await owner.api.deleteLink({ params: { id: links[4]!.id } });
        links = links.slice(0, 4);
      } finally {
        await app.close();
      }
      const before = await answers(db, engine, owner.userId);
      expect(before.hits.kubernetes?.[0]).toHaveLength(3);
      expect(before.hits.trailword1499?.[0]).toEqual([links[3]!.id]);
      expect(before.changes).toHaveLength(2);
      // The development chain's definitions, not the source's (generated since).
      const oldDefinition = engine === 'sqlite' ? 'view link_fts_source' : 'function link_search_refresh';
      expect((await searchSchemaDrift(db, engine)).map((d) => `${d.problem} ${d.kind} ${d.name}`)).toContain(
        `different ${oldDefinition}`,
      );

      const applied = await migrateToLatest(database);
      expect(applied).toContain('0012-search-schema');
      expect(applied.filter((n) => n < '0011')).toEqual([]);
      expect(await searchSchemaDrift(db, engine)).toEqual([]);
      expect(await answers(db, engine, owner.userId)).toEqual(before);
      if (engine === 'postgres') expect(await wordCountDrift(db)).toEqual([]);

      // Saved after it: the source's triggers index it, and move the vector version on a delete.
      const after = await serve(database);
      try {
        const { api, userId } = await after.signUp('later');
        const [saved, gone] = [
          await api.createLink({ body: { url: 'https://ice.example/a', title: 'Glacier tongues', tags: ['alps'] } }),
          await api.createLink({ body: { url: 'https://ice.example/b', title: 'Moraine' } }),
        ];
        await api.deleteLink({ params: { id: gone.id } });
        const repo = new SearchRepository(db, engine);
        expect(await repo.textHits(userId, searchTerms('glacier alps'), null, 100)).toEqual([saved.id]);
        expect(await repo.textHits(userId, searchTerms('morai'), null, 100)).toEqual([]);
        expect(await repo.spellings(userId, ['g'], 1)).toEqual(['glacier']);
        expect(await repo.vectorChanges(userId, 'm', 0, await repo.version(userId))).toEqual([
          { linkId: gone.id, createdAt: 0, bytes: null },
        ]);
        if (engine === 'postgres') expect(await wordCountDrift(db)).toEqual([]);
      } finally {
        await after.app.close();
      }
    } finally {
      await database.close();
      await old.drop();
    }
  });
});
