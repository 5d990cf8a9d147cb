import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../src/db/schema.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when the test PostgreSQL server answers. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database for one test file and returns its URL; `drop` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `linkwise_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/**
 * PostgreSQL: the rows where the per-user word counts the trigger keeps (`search_words`) differ from
 * a recount from scratch (what a rebuild of the index does); none when in step.
 */
export async function wordCountDrift(db: Kysely<DB>): Promise<unknown[]> {
  const { rows } = await sql`
    (select user_id, word, links from search_words
     except select s.user_id, w, count(*)::int from link_search s cross join search_words_of(s.words) w group by 1, 2)
    union all
    (select s.user_id, w, count(*)::int from link_search s cross join search_words_of(s.words) w group by 1, 2
     except select user_id, word, links from search_words)`.execute(db);
  return rows;
}
