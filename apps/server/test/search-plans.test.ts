import type { ApiClient, Link } from '@linkwise/contract';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.js';
import { SearchRepository } from '../src/modules/search/search.repository.js';
import { ownerToken, searchTerms, tsQueryText } from '../src/modules/search-index/text-query.js';
import { fillLinkWords } from '../src/modules/search-index/schema.sqlite.js';
import { applySearchSchema } from '../src/modules/search-index/search-index.js';
import { engines, seed, startServer, type TestServer } from './harness.js';
import { wordCountDrift } from './pg.js';

/** Sets a link's title inside `trx`: a save as the database sees it (its triggers re-index the link). */
const retitle = (trx: Kysely<DB>, id: string, title: string) =>
  sql`update links set title = ${title} where id = ${id}`.execute(trx);

/**
 * Waits until at least `n` sessions of this test's database wait for a lock: a concurrent save has
 * reached the wait the test arranged. Fails after 5 s.
 */
async function lockWaits(db: Kysely<DB>, n: number): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where wait_event_type = 'Lock' and datname = current_database()`.execute(db);
    if (rows[0]!.n >= n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`fewer than ${n} sessions waiting for a lock`);
}

/**
 * Text search picks its plan by the size of the user's library on PostgreSQL (the user's own rows
 * for small libraries, the GIN index for large ones). Both plans must give the same answer.
 */
describe.each(engines())('text search plans on %s', (engine) => {
  let server: TestServer;
  let repo: SearchRepository;
  let userId: string;
  let links: Link[];
  let ownerApi: ApiClient;

  beforeAll(async () => {
    server = await startServer(engine);
    repo = new SearchRepository(server.database.db, engine);
    const owner = await server.signUp('owner');
    userId = owner.userId;
    ownerApi = owner.api;
    links = await seed(server, owner.api, [
      { url: 'https://k8s.example/a', title: 'Kubernetes networking explained', tags: ['devops'] },
      { url: 'https://k8s.example/b', title: 'Deploying to Kubernetes', description: 'Zero-downtime deployments' },
      { url: 'https://food.example/c', title: 'Fresh pasta', notes: 'kubernetes of the kitchen' },
      { url: 'https://run.example/d', title: 'Running your first marathon' },
    ]);
    // Another user's matching links must stay out of both plans.
    const other = await server.signUp('other');
    await seed(server, other.api, [{ url: 'https://k8s.example/x', title: 'Kubernetes at scale' }]);
  });
  afterAll(() => server.close());

  it('answers the same ids in the same order for a small and a large library', async () => {
    for (const query of ['kubernetes', 'kub', 'deploym', 'fresh pa', 'marathons', 'devops', 'nothing here']) {
      const small = await repo.textHits(userId, searchTerms(query), null, 100, 1);
      const large = await repo.textHits(userId, searchTerms(query), null, 100, 1_000_000);
      expect(small, query).toEqual(large);
    }
    const found = await repo.textHits(userId, searchTerms('kubernetes'), null, 100, 1);
    expect(new Set(found)).toEqual(new Set([links[0]?.id, links[1]?.id, links[2]?.id]));
  });

  it('answers the same best `limit` in both plans when the matches outnumber it', async () => {
    // Matches in the title, in the tags and elsewhere, interleaved in time: the large-library plan
    // on SQLite keeps only the newest `limit` of each tier before merging them.
    const { api, userId: tiersUser } = await server.signUp('tiers');
    const fields = [
      { title: 'Glacier walk' },
      { title: 'Notes', tags: ['glacier'] },
      { title: 'Alps', notes: 'a glacier on the way' },
      { title: 'Ice', description: 'glacier tongues' },
    ];
    const seeded = await seed(
      server,
      api,
      Array.from({ length: 24 }, (_, i) => ({ url: `https://tiers.example/${i}`, ...fields[(i * 7) % 4]! })),
    );
    // PostgreSQL's large-library plan walks only the user's newest rows (`window`) before it turns to
    // GIN: windows that hold every tier's `limit`, some of them, or none.
    const windows = engine === 'postgres' ? [1, 3, 8, 17, 4000] : [4000];
    for (const window of windows) {
      const windowed = new SearchRepository(server.database.db, engine, window);
      for (const limit of [1, 2, 3, 5, 6, 7, 11, 13, 24, 30]) {
        for (const query of ['glacier', 'glac']) {
          const small = await repo.textHits(tiersUser, searchTerms(query), null, limit, 1);
          const large = await windowed.textHits(tiersUser, searchTerms(query), null, limit, 1_000_000);
          expect(large, `${query} limit ${limit} window ${window}`).toEqual(small);
          expect(small).toHaveLength(Math.min(limit, 24));
        }
      }
    }
    // The tiers themselves: titles, then tags, then the rest, each newest first.
    const all = await repo.textHits(tiersUser, searchTerms('glacier'), null, 24, 1);
    const titleOf = new Map(seeded.map((l) => [l.id, l.title]));
    const tierOf = (title?: string) => (title === 'Glacier walk' ? 'title' : title === 'Notes' ? 'tags' : 'rest');
    expect(all.map((id) => tierOf(titleOf.get(id)))).toEqual([
      ...Array<string>(6).fill('title'),
      ...Array<string>(6).fill('tags'),
      ...Array<string>(12).fill('rest'),
    ]);
    const age = new Map(seeded.map((l, i) => [l.id, i]));
    for (const [from, to] of [
      [0, 6],
      [6, 12],
      [12, 24],
    ] as const) {
      const ages = all.slice(from, to).map((id) => age.get(id) ?? -1);
      expect(ages).toEqual([...ages].sort((a, b) => b - a));
    }
  });

  it('applies the downgrade cutoff in both plans', async () => {
    const cutoff = { createdAt: Date.parse(links[1]?.createdAt ?? ''), id: links[1]?.id ?? '' };
    for (const userLinks of [1, 1_000_000]) {
      const hits = await repo.textHits(userId, searchTerms('kubernetes'), cutoff, 100, userLinks);
      expect(new Set(hits), String(userLinks)).toEqual(new Set([links[0]?.id, links[1]?.id]));
    }
  });

  it('takes spellings for typos from the user’s own words (and, on SQLite past the small-library size, every user’s indexed words)', async () => {
    const own = await repo.spellings(userId, ['k', 'd', 'z'], 1);
    expect(own).toEqual(expect.arrayContaining(['kubernetes', 'kitchen', 'deploying', 'devops', 'downtime', 'zero']));
    // Another user's title words are never offered from the user's own words.
    expect((await repo.spellings(userId, ['s'], 1)).filter((w) => w === 'scale')).toEqual([]);
    if (engine === 'sqlite') expect(await repo.spellings(userId, ['s'], 1_000_000)).toContain('scale');
  });

  if (engine === 'sqlite') {
    it('expands a typed prefix into indexed words: the same links as FTS5’s prefix query, and words the stemmer cut', async () => {
      const { db } = server.database;
      const prefixQuery = async (prefix: string) => {
        const { rows } = await sql<{ id: string }>`select d.link_id as id from link_fts f
          join search_docs d on d.rowid = f.rowid
          where link_fts match ${`owner:"${ownerToken(userId)}" AND {title tags url body}:("${prefix}"*)`}`.execute(db);
        return new Set(rows.map((r) => r.id));
      };
      for (const prefix of ['kube', 'kubernete', 'netw', 'deplo', 'mara', 'kitc', 'fres', 'devo', 'k', 'd', 'r', 'z']) {
        const expanded = new Set(await repo.textHits(userId, searchTerms(prefix), null, 100));
        expect(expanded.size, prefix).toBeGreaterThan(0);
        expect(expanded, prefix).toEqual(await prefixQuery(prefix));
      }
      // "running" is stored as "run": a prefix of the stem never found it.
      expect(await prefixQuery('runn')).toEqual(new Set());
      expect(await repo.textHits(userId, searchTerms('runn'), null, 100)).toEqual([links[3]?.id]);
    });

    it('keeps the indexed words by trigger: every word of titles, tags, URLs, notes and page text', async () => {
      const { db } = server.database;
      const link = links[3]!;
      await ownerApi.updateLink({
        params: { id: link.id },
        body: { title: 'Running a trail ultramarathon', tags: ['Ötztal'] },
      });
      await sql`insert into page_contents (link_id, text, fetched_at) values (${link.id}, 'Switchbacks and altitude', 0)`.execute(
        db,
      );
      // The analysis saves page text as an upsert, whose conflict clause a trigger's own yields to.
      await sql`insert into page_contents (link_id, text, fetched_at) values (${link.id}, 'Switchbacks and altitude, again', 1)
        on conflict (link_id) do update set text = excluded.text`.execute(db);
      const words = async () => {
        const { rows } = await sql<{ word: string }>`select word from link_words`.execute(db);
        return new Set(rows.map((r) => r.word));
      };
      const kept = await words();
      for (const w of [
        'ultramarathon',
        'trail',
        'otztal',
        'switchbacks',
        'altitude',
        'again',
        'kitchen',
        'k8s',
        'example',
      ])
        expect(kept, w).toContain(w);
      expect(await repo.textHits(userId, searchTerms('switchb'), null, 100)).toEqual([link.id]);
      // The triggers hold what a rebuild derives from the index's documents (and, as
      // the list only grows, the words of the title that was replaced).
      await sql`delete from link_words`.execute(db);
      await fillLinkWords(db as Kysely<unknown>);
      const fresh = await words();
      expect([...fresh].filter((w) => !kept.has(w))).toEqual([]);
      expect([...kept].filter((w) => !fresh.has(w))).toEqual(['first', 'marathon', 'your']);
    });
  }

  if (engine === 'postgres') {
    it('adds new lexemes and a user’s words from concurrent saves without a deadlock', async () => {
      const { db } = server.database;
      const [a, b] = [links[0]!.id, links[1]!.id];
      // A title is indexed twice: its lexemes (`search_lexemes`) and the user's words (`search_words`).
      // The first save holds a new lexeme uncommitted; the second adds it and another and waits for
      // the first on the one it holds; the first then adds the other. Had the second added the other
      // before waiting (the order a set difference happens to give), each would wait for the other.
      // Several pairs, so that some pair's unsorted order would be the deadlocking one.
      const pairs = [
        ['qqamber', 'qqzinc'],
        ['qqbirch', 'qqyarrow'],
        ['qqcedar', 'qqxenon'],
        ['qqdune', 'qqwillow'],
      ];
      // The second round's words are known lexemes (the first round added them) but no longer the
      // user's words (titles replaced since): both saves count the same words down and up at once,
      // which left words at a count of 0 before migration 0008 mended the trigger.
      for (const [held, other] of [...pairs, ...pairs.slice(0, 3)] as [string, string][]) {
        let second: Promise<unknown> | undefined;
        await db.transaction().execute(async (trx) => {
          await retitle(trx, a, held);
          second = db.transaction().execute((t2) => retitle(t2, b, `${other} ${held}`));
          await lockWaits(db, 1);
          await retitle(trx, a, `${held} ${other}`);
        });
        await second;
      }
      const { rows } = await sql<{ lexeme: string }>`
        select distinct lexeme from search_lexemes where lexeme like 'qq%'`.execute(db);
      expect(rows).toHaveLength(8);
      // The user's word counts equal a recount, and the words are those of the current titles.
      expect(await wordCountDrift(db)).toEqual([]);
      expect((await repo.spellings(userId, ['q'], 1)).filter((w) => w.startsWith('qq')).sort()).toEqual([
        'qqcedar',
        'qqxenon',
      ]);
      await ownerApi.updateLink({ params: { id: a }, body: { title: links[0]!.title } });
      await ownerApi.updateLink({ params: { id: b }, body: { title: links[1]!.title } });
      await sql`delete from search_lexemes where lexeme like 'qq%'`.execute(db);
    });

    it('never makes one user’s save wait for another’s new lexemes', async () => {
      // Each transaction re-indexes twice (as creating a link with tags does), adding the same two
      // new lexemes in opposite orders: with a unique index on lexemes, each waited for the other
      // (here the second would wait for the first, which waits for it: the test would time out).
      const { db } = server.database;
      const { api } = await server.signUp('lexemes');
      const [theirs] = await seed(server, api, [{ url: 'https://lexemes.example/1', title: 'Theirs' }]);
      const mine = links[2]!;
      await db.transaction().execute(async (trx) => {
        await retitle(trx, mine.id, 'qqkiwi');
        await db.transaction().execute(async (other) => {
          await retitle(other, theirs!.id, 'qqapple');
          await retitle(other, theirs!.id, 'qqkiwi qqapple');
        });
        await retitle(trx, mine.id, 'qqkiwi qqapple');
      });
      const { rows } = await sql<{ lexeme: string }>`
        select distinct lexeme from search_lexemes where lexeme like 'qq%' order by lexeme`.execute(db);
      expect(rows.map((r) => r.lexeme)).toEqual(['qqappl', 'qqkiwi']);
      await ownerApi.updateLink({ params: { id: mine.id }, body: { title: mine.title } });
      await api.updateLink({ params: { id: theirs!.id }, body: { title: 'Theirs' } });
      await sql`delete from search_lexemes where lexeme like 'qq%'`.execute(db);
    });

    it('keeps every indexed lexeme by trigger, and expands a prefix into them: the same links as the prefix query', async () => {
      const { db } = server.database;
      const link = links[3]!;
      await ownerApi.updateLink({ params: { id: link.id }, body: { title: 'Running a trail ultramarathon' } });
      await sql`insert into page_contents (link_id, text, fetched_at) values (${link.id}, 'Switchbacks and altitude', 0)
        on conflict (link_id) do update set text = excluded.text`.execute(db);
      const lexemes = async () => {
        const { rows } = await sql<{ lexeme: string }>`select lexeme from search_lexemes`.execute(db);
        return new Set(rows.map((r) => r.lexeme));
      };
      const kept = await lexemes();
      for (const l of ['ultramarathon', 'trail', 'switchback', 'altitud', 'kitchen', 'devop'])
        expect(kept, l).toContain(l);
      // Owner tokens are not words.
      expect([...kept].filter((l) => l === ownerToken(userId))).toEqual([]);
      // The trigger holds what a rebuild derives (and, as the list only grows, what
      // the replaced title had).
      const { rows } = await sql<{ lexeme: string }>`
        select distinct n.lexeme from link_search, unnest(document) n where n.weights <> '{D}'`.execute(db);
      const fresh = new Set(rows.map((r) => r.lexeme));
      expect([...fresh].filter((l) => !kept.has(l))).toEqual([]);
      expect([...kept].filter((l) => !fresh.has(l)).sort()).toEqual(['first', 'marathon']);
      // The large-library plan asks GIN for the expanded lexemes: the same links as the prefix query.
      const windowless = new SearchRepository(db, engine, 1);
      // Stop words, digits and words with shortened forms included; a word no lexeme starts with
      // matches nothing, and the walks are skipped for it.
      const prefixes = ['kube', 'kubernete', 'netw', 'deplo', 'deploym', 'ultra', 'switchb', 'altitu', 'zer', 'kitc'];
      for (const prefix of [...prefixes, 'k8', 'the kube', 'kubernetes the', 'zero deployments', 'kubernetes ze']) {
        const { rows: byPrefix } = await sql<{ id: string }>`select link_id as id from link_search
          where user_id = ${userId} and document @@ to_tsquery('english', ${tsQueryText(searchTerms(prefix))})`.execute(
          db,
        );
        const expanded = new Set(await windowless.textHits(userId, searchTerms(prefix), null, 100, 1_000_000));
        expect(expanded.size, prefix).toBeGreaterThan(0);
        expect(expanded, prefix).toEqual(new Set(byPrefix.map((r) => r.id)));
      }
      expect(await windowless.textHits(userId, searchTerms('kubxrnetes'), null, 100, 1_000_000)).toEqual([]);
      // A stop word before a short last word; words PostgreSQL reads as two tokens (❶ separates).
      for (const query of ['the ze', 'the kubernetes d', 'kube❶zzz', 'zzq❶kube', 'kube❶netw']) {
        const small = await repo.textHits(userId, searchTerms(query), null, 100, 1);
        expect(await windowless.textHits(userId, searchTerms(query), null, 100, 1_000_000), query).toEqual(small);
      }
      expect(await windowless.textHits(userId, searchTerms('the'), null, 100, 1_000_000)).toEqual([]);
      await ownerApi.updateLink({ params: { id: link.id }, body: { title: 'Running your first marathon' } });
      await sql`delete from page_contents where link_id = ${link.id}`.execute(db);
    });

    it('never deadlocks two saves of one user that swap words', async () => {
      const { db } = server.database;
      const [a, b, c] = [links[0]!.id, links[1]!.id, links[2]!.id];
      await retitle(db, a, 'qqswapa');
      await retitle(db, b, 'qqswapb');
      await retitle(db, c, 'qqswapaa');
      let first: Promise<unknown> = Promise.resolve();
      let second: Promise<unknown> = Promise.resolve();
      try {
        // A third transaction holds one word so that the first save stops half-way: it has counted
        // its dropped word (qqswapa) down and waits to count qqswapaa up. The second save drops
        // qqswapb, which the first adds next, and adds qqswapa. With 0008's trigger the second locked
        // qqswapb and then waited for the first, which then waited for it: a deadlock. Since 0010
        // the second waits for the first at the user's row, holding nothing.
        await db.transaction().execute(async (holder) => {
          await sql`select 1 from search_words where user_id = ${userId} and word = 'qqswapaa' for update`.execute(
            holder,
          );
          first = db.transaction().execute((trx) => retitle(trx, a, 'qqswapaa qqswapb'));
          await lockWaits(db, 1);
          second = db.transaction().execute((trx) => retitle(trx, b, 'qqswapa'));
          await lockWaits(db, 2);
        });
        await Promise.all([first, second]);
        expect(await wordCountDrift(db)).toEqual([]);
        const { rows } = await sql<{ word: string; links: number }>`
          select word, links from search_words where user_id = ${userId} and word like 'qqswap%' order by word`.execute(
          db,
        );
        expect(rows).toEqual([
          { word: 'qqswapa', links: 1 },
          { word: 'qqswapaa', links: 2 },
          { word: 'qqswapb', links: 1 },
        ]);
      } finally {
        await Promise.allSettled([first, second]);
        for (const [i, id] of [a, b, c].entries()) await retitle(db, id, links[i]!.title);
        await sql`delete from search_lexemes where lexeme like 'qqswap%'`.execute(db);
      }
    });

    it('never deadlocks two transactions of one user that swap words over two statements each', async () => {
      // As two tag edits that swap tags do (a tag edit removes, then adds): each drops one word,
      // then adds the word the other dropped.
      const { db } = server.database;
      const [a, b, c, d] = [links[0]!.id, links[1]!.id, links[2]!.id, links[3]!.id];
      await retitle(db, a, 'qqtwofoo');
      await retitle(db, b, 'qqtwobar');
      let second: Promise<unknown> = Promise.resolve();
      try {
        await db.transaction().execute(async (first) => {
          await retitle(first, a, 'Plain one');
          second = db.transaction().execute(async (trx) => {
            await retitle(trx, b, 'Plain two');
            await retitle(trx, d, 'qqtwofoo');
          });
          // The second waits, for the user (0010) or, before, for qqtwofoo after taking qqtwobar.
          await lockWaits(db, 1);
          await retitle(first, c, 'qqtwobar');
        });
        await second;
        expect(await wordCountDrift(db)).toEqual([]);
      } finally {
        await Promise.allSettled([second]);
        for (const [i, id] of [a, b, c, d].entries()) await retitle(db, id, links[i]!.title);
        await sql`delete from search_lexemes where lexeme like 'qqtwo%'`.execute(db);
      }
    });

    it('never deadlocks an edit that adds a new word beside a save holding the user, as creating a link does', async () => {
      const { db } = server.database;
      const [a, b] = [links[0]!.id, links[1]!.id];
      let edit: Promise<unknown> = Promise.resolve();
      try {
        await db.transaction().execute(async (creating) => {
          // Creating a link locks the user first (`lockUser`), then indexes the link.
          await sql`select id from users where id = ${userId} for update`.execute(creating);
          // The edit adds a word no link has. With 0008's trigger it inserted the word, then its
          // foreign-key check waited for the user; the creating save then waited for the word.
          edit = db.transaction().execute((trx) => retitle(trx, a, 'qqguide'));
          await lockWaits(db, 1);
          await retitle(creating, b, 'qqguide');
        });
        await edit;
        expect(await wordCountDrift(db)).toEqual([]);
      } finally {
        await Promise.allSettled([edit]);
        for (const [i, id] of [a, b].entries()) await retitle(db, id, links[i]!.title);
        await sql`delete from search_lexemes where lexeme like 'qqguid%'`.execute(db);
      }
    });

    it('moves only a long document out of line, and applying the source brings back in line the ids of rows saved under 0006’s layout', async () => {
      // Under the 128-byte toasting target of a development version (0006, squashed since), a row
      // past ~2 kB (page text, long notes) had its link id, owner id and words moved to the TOAST
      // table too, and every sort or filter on an id read them from there, row by row. A later save
      // carried the ids over as stored. That layout is not the source's: applying the source (as
      // migration 0012 does) replaces the table and rebuilds its rows.
      const { db } = server.database;
      const outOfLine = async () => {
        const { rows: toast } = await sql<{ name: string }>`
          select reltoastrelid::regclass::text as name from pg_class where oid = 'link_search'::regclass`.execute(db);
        const { rows } = await sql<{ n: number }>`
          select count(distinct chunk_id)::int as n from ${sql.table(toast[0]!.name)}`.execute(db);
        return rows[0]!.n;
      };
      // In line, an id's size counts its length header; out of line, only its bytes. The row is
      // read from the table (`words` is in no index), not from an index, which holds ids in line.
      const idsInLine = async (id: string) => {
        const { rows } = await sql<{ ids: boolean }>`
          select pg_column_size(link_id) > octet_length(link_id) and pg_column_size(user_id) > octet_length(user_id)
            and words is not null as ids
          from link_search where link_id = ${id}`.execute(db);
        return rows[0]?.ids;
      };
      const [withText, withNotes, later] = [links[3]!, links[1]!, links[0]!];
      const text = (word: string) => Array.from({ length: 1500 }, (_, i) => `${word}${i}`).join(' ');
      const pageText = (id: string, word: string) =>
        sql`insert into page_contents (link_id, text, fetched_at) values (${id}, ${text(word)}, 0)
          on conflict (link_id) do update set text = excluded.text`.execute(db);
      try {
        // 0006's layout, and rows saved under it: one with page text, one with long notes.
        await sql`alter table link_search set (toast_tuple_target = 128)`.execute(db);
        await sql`alter table link_search alter column link_id set storage extended, alter column user_id set storage extended`.execute(
          db,
        );
        await pageText(withText.id, 'trailword');
        await ownerApi.updateLink({ params: { id: withNotes.id }, body: { notes: text('notesword') } });
        expect(await idsInLine(withText.id)).toBe(false);
        expect(await idsInLine(withNotes.id)).toBe(false);
        expect(await applySearchSchema(db, 'postgres')).toEqual(
          expect.arrayContaining(['replaced table link_search', 'rebuilt the index']),
        );
        expect(await idsInLine(withText.id)).toBe(true);
        expect(await idsInLine(withNotes.id)).toBe(true);
        // From now on a long page text puts one value out of line: the document.
        const before = await outOfLine();
        await pageText(later.id, 'laterword');
        expect((await outOfLine()) - before).toBe(1);
        expect(await idsInLine(later.id)).toBe(true);
        for (const [word, id] of [
          ['trailword1499', withText.id],
          ['notesword1499', withNotes.id],
          ['laterword1499', later.id],
        ] as const) {
          expect(await repo.textHits(userId, searchTerms(word), null, 100, 1_000_000), word).toEqual([id]);
        }
      } finally {
        await sql`delete from page_contents where link_id in (${withText.id}, ${later.id})`.execute(db);
        await ownerApi.updateLink({ params: { id: withNotes.id }, body: { notes: '' } });
        await applySearchSchema(db, 'postgres');
      }
    });

    it('keeps the user’s words in step with edits and deletions', async () => {
      const words = async () => new Set(await repo.spellings(userId, ['f', 'k', 'n', 'p', 'r'], 1));
      expect(await words()).toContain('pasta');
      // 'pasta' is in one link's title only: renaming the link takes the word away.
      await ownerApi.updateLink({ params: { id: links[2]!.id }, body: { title: 'Fresh ravioli' } });
      let now = await words();
      expect(now).toContain('ravioli');
      expect(now).not.toContain('pasta');
      // The counts the trigger keeps equal a recount from scratch (what a rebuild does).
      expect(await wordCountDrift(server.database.db)).toEqual([]);
      // Deleting a link takes its own words; 'kubernetes' is in two other links and stays.
      await ownerApi.deleteLink({ params: { id: links[0]!.id } });
      now = await words();
      expect(now).not.toContain('networking');
      expect(now).toContain('kubernetes');
      await ownerApi.deleteLink({ params: { id: links[1]!.id } });
      await ownerApi.deleteLink({ params: { id: links[2]!.id } });
      now = await words();
      expect(now).not.toContain('kubernetes');
      expect(now).not.toContain('ravioli');
    });
  }
});
