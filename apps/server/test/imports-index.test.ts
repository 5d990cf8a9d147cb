import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.js';
import { indexInBulk, rebuildSearchIndex } from '../src/modules/search-index/search-index.js';
import { engines, startServer, type TestServer } from './harness.js';
import { fixture, importFile, netscapeFile } from './import-helpers.js';
import { wordCountDrift } from './pg.js';

/** Everything the search index holds, in a stable order, as text. */
async function indexState(db: Kysely<DB>) {
  const { rows: links } = await sql`
    select link_id, user_id, document::text as document, rank_document::text as rank_document, words
    from link_search order by link_id`.execute(db);
  const { rows: words } = await sql`select user_id, word, links from search_words order by 1, 2`.execute(db);
  const { rows: missingLexemes } = await sql`
    select x from link_search s cross join search_lexemes_of(s.document) x
    except select lexeme from search_lexemes`.execute(db);
  return { links, words, missingLexemes };
}

// PostgreSQL indexes an import's batch once, after writing it (decision 0009 §5): what it leaves
// must be exactly what indexing row by row, or a rebuild from the links, gives.
describe.skipIf(!engines().includes('postgres'))('bulk indexing of imports on postgres', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('postgres', { JOBS_ENABLED: 'true', BILLING: 'off' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('leaves the index, word counts and lexemes equal to a rebuild, searchable at once', async () => {
    const db = server.database.db;
    const { api, token } = await server.signUp('bulk-index');
    // Words the import shares with links saved one by one ("item", "number", "bulk"), counted up by both.
    await api.createLink({ body: { url: 'https://saved.example.com/a', title: 'Item number zero', tags: ['bulk'] } });
    const other = await server.signUp('bulk-index-other');
    await other.api.createLink({ body: { url: 'https://saved.example.com/b', title: 'Item number one' } });

    const from = server.queries();
    const result = await importFile(server.url, token, netscapeFile(1200));
    expect(result).toMatchObject({ status: 'done', created: 1200 });
    // Three batches of 500, each indexed once.
    expect(server.statements(from).filter((q) => q.includes('link_search_add('))).toHaveLength(3);
    // A second import: duplicates filled in place (indexed row by row) next to new links (in bulk).
    await api.createLink({ body: { url: 'https://www.kitchen.example.org/bread/', title: 'My own title' } });
    const filled = await importFile(server.url, token, fixture('chrome-bookmarks.html'), { duplicates: 'fill-empty' });
    expect(filled).toMatchObject({ status: 'done', updated: 1, created: 4 });

    const { data } = await api.listLinks({ query: { search: 'number 1199' } });
    expect(data.map((l) => l.url)).toEqual(['https://bulk.example.com/item/1199']);
    // Tags are indexed with their links: every seventh link is tagged t0.
    expect((await api.listLinks({ query: { search: 't0', limit: 1 } })).total).toBe(172);
    expect((await api.search({ query: { query: '#t0' } })).data.length).toBeGreaterThan(0);
    expect((await api.listLinks({ query: { search: 'sourdough', limit: 1 } })).total).toBe(1);

    // Compared in one transaction that holds off the analysis jobs' writes, then rolled back.
    const rollback = new Error('rollback');
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`lock table links, link_tags, page_contents in share mode`.execute(trx);
        const bulk = await indexState(trx);
        expect(bulk.links).toHaveLength(1200 + 4 + 3);
        expect(bulk.missingLexemes).toEqual([]);
        expect(await wordCountDrift(trx)).toEqual([]);
        await rebuildSearchIndex<DB>(trx, 'postgres');
        const rebuilt = await indexState(trx);
        expect(bulk.links).toEqual(rebuilt.links);
        expect(bulk.words).toEqual(rebuilt.words);
        expect(bulk.words.length).toBeGreaterThan(1000);
        throw rollback;
      })
      .catch((e: unknown) => {
        if (e !== rollback) throw e;
      });
  });

  it('indexes a concurrent writer row by row, a link edited mid-batch once, nothing of a rolled-back batch', async () => {
    const db = server.database.db;
    const a = await server.signUp('bulk-a');
    const b = await server.signUp('bulk-b');
    const link = (id: string, userId: string, title: string) =>
      sql`insert into links (id, user_id, url, normalized_url, title, created_at, updated_at)
          values (${id}, ${userId}, ${`https://${id}.example/`}, ${`${id}.example/`}, ${title}, 1, 1)`;
    const indexed = async (id: string) =>
      (await sql<{ words: string }>`select words from link_search where link_id = ${id}`.execute(db)).rows[0]?.words;

    await db.transaction().execute(async (trx) => {
      await indexInBulk<DB>(trx, 'postgres', ['bulk-a1', 'bulk-a2'], async () => {
        await link('bulk-a1', a.userId, 'Wombat burrows').execute(trx);
        await link('bulk-a2', a.userId, 'Wombat diets').execute(trx);
        // Another connection, meanwhile: its insert is indexed as it commits, the switch is not its.
        await b.api.createLink({ body: { url: 'https://other.example/', title: 'Wombat sightings' } });
        // An edit inside the bulk write is indexed at once (only inserts wait)…
        await sql`update links set title = 'Wombat tunnels' where id = 'bulk-a1'`.execute(trx);
      });
      // …and after the batch, writes in the same transaction are indexed row by row again.
      await link('bulk-a3', a.userId, 'Wombat naps').execute(trx);
    });
    expect(await indexed('bulk-a1')).toContain('tunnels');
    expect(await indexed('bulk-a2')).toContain('diets');
    expect(await indexed('bulk-a3')).toContain('naps');
    expect((await b.api.listLinks({ query: { search: 'wombat' } })).total).toBe(1);
    expect((await a.api.listLinks({ query: { search: 'wombat' } })).total).toBe(3);
    expect(await wordCountDrift(db)).toEqual([]);

    await db
      .transaction()
      .execute(async (trx) => {
        await indexInBulk<DB>(trx, 'postgres', ['bulk-a4'], async () => {
          await link('bulk-a4', a.userId, 'Wombat rollback').execute(trx);
          await link('bulk-a3', a.userId, 'Duplicate id').execute(trx);
        });
      })
      .catch(() => undefined);
    expect(await indexed('bulk-a4')).toBeUndefined();
    expect((await a.api.listLinks({ query: { search: 'rollback' } })).total).toBe(0);
    // The connection that ran the failed batch indexes its next inserts as usual.
    const after = await a.api.createLink({ body: { url: 'https://after-rollback.example/', title: 'Numbats' } });
    expect(await indexed(after.id)).toContain('numbats');
    expect(await wordCountDrift(db)).toEqual([]);
  });

  it('keeps indexing inserts row by row outside a bulk write, in the same session', async () => {
    const db = server.database.db;
    const { api } = await server.signUp('after-bulk');
    const link = await api.createLink({ body: { url: 'https://after.example.com/', title: 'Quokkas everywhere' } });
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from link_search where link_id = ${link.id}`.execute(db);
    expect(rows[0]!.n).toBe(1);
    expect(await wordCountDrift(db)).toEqual([]);
  });
});
