import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { withinCutoff, type Cutoff } from '../links/link.repository.js';
import {
  afterPrefix,
  documentRecheck,
  fts5Match,
  ginQuery,
  knownTerms,
  tagMatches,
  tsQueryText,
  type FtsColumns,
  type Term,
  type TsWeights,
} from '../search-index/text-query.js';
import type { StoredVector, VectorChange } from './vector-index.js';
import { SQLITE_TYPO_TEXT } from '../search-index/schema.sqlite.js';

/**
 * PostgreSQL memory for one text search. A prefix term (the last word) makes GIN collect every
 * matching row of every user in one bitmap; past `work_mem` (default 4MB) the bitmap turns lossy
 * and each row of every matching page is re-read and re-checked. Measured on 1.1M links (100k-link
 * user, "typescript"): 4MB 194–218 ms (26,906 heap pages, 28,756 rows rechecked away), 8MB 113 ms,
 * 16MB 64 ms, 32MB 60 ms (9,667 pages, no recheck). The bitmap grows only as far as it needs.
 */
const SEARCH_WORK_MEM = '32MB';
/**
 * PostgreSQL, large libraries: the planner's cost of a random page read for the search statement.
 * At the default (4) it preferred walking the primary key backwards over every user's rows, since
 * ids are in heap order, to walking the user's own `(user_id, link_id)` entries, whose rows it
 * costed as random reads: a 100k-link user among 1.1M links read 88,000 rows instead of 8,000 (34 →
 * 3–5 ms for a title walk). 1.1 is the usual value for data in memory or on SSD.
 */
const SEARCH_RANDOM_PAGE_COST = '1.1';

/**
 * Up to this many links, PostgreSQL text search reads the user's own index rows and tests each
 * (~3 µs a row) rather than asking GIN, whose cost follows the whole table (20–100 ms at 1.1M rows),
 * SQLite's typo path takes its spellings from the user's own words instead of every user's, and
 * SQLite ranks every match rather than walking each tier newest first.
 */
export const PER_USER_SCAN_MAX = 5000;

/**
 * PostgreSQL, large libraries: a tier's walk over the user's newest rows stops here. Beyond, the
 * tier is rare in this library and GIN finds its matches faster than the walk would.
 */
export const NEWEST_WINDOW = 8000;
/**
 * The walk for the "anywhere" tier reads `document`, out of line once it holds page text (~5.5 µs
 * a row against ~1–2 µs for the in-line `rank_document` of the title walks); it reads this fraction
 * of the window. Measured with page text on every link of the 100k-link user (bench/RESULTS.md,
 * "Search speed, round 5"), the sum of 18 statement medians for shares of 1, 2, 4, 8 and 16: 420,
 * 397, 365–376, 746 and 845 ms.
 */
const ANYWHERE_SHARE = 4;

/** The search index and the vector store. The only place search SQL lives. */
export class SearchRepository {
  constructor(
    private readonly db: Kysely<DB>,
    readonly engine: Engine,
    /** PostgreSQL, large libraries: how many of the user's newest rows a tier's walk reads at most. */
    private readonly window = NEWEST_WINDOW,
  ) {}

  /** Links hidden by a downgrade are not searchable: keep ids up to the cutoff. */
  private visible(userId: string, cutoff: Cutoff | null, idColumn: RawBuilder<unknown>): RawBuilder<unknown> {
    if (!cutoff) return sql``;
    return sql`and exists (select 1 from links l where l.id = ${idColumn} and l.user_id = ${userId}
      and ${withinCutoff(cutoff, 'l')})`;
  }

  /**
   * The user's viewable links matching every word, best first (ties: newest first: PostgreSQL by
   * id, which is time-ordered; SQLite by index row, assigned in insertion order), at most `limit`.
   * One statement. `userLinks` (the user's link count) picks the plan on both engines.
   */
  async textHits(
    userId: string,
    terms: Term[],
    cutoff: Cutoff | null,
    limit: number,
    userLinks = Number.POSITIVE_INFINITY,
  ): Promise<string[]> {
    if (terms.length === 0) return [];
    const visible = this.visible(
      userId,
      cutoff,
      this.engine === 'sqlite' ? sql`(select link_id from search_docs where rowid = f.rowid)` : sql`s.link_id`,
    );
    if (this.engine === 'sqlite') {
      // Tiers, each newest first: every word in the title, every word in the title or tags, the rest.
      // Not bm25(): it counts each word's matches in every user's documents for its weights, 3–10 ms
      // per word even for a 100-link user among 1.1M links, and most of a large library's search.
      const match = (columns: FtsColumns) => fts5Match(userId, terms, columns);
      if (userLinks <= PER_USER_SCAN_MAX) {
        // A small library: every match, with its tier from the two narrower matches' sets. FTS5 walks
        // its entries in ascending order here; newest first (below) cost a 100-link user among 1.1M
        // links twice as much, because reading a long entry list backwards skips less.
        const inTier = (columns: FtsColumns) =>
          sql`(f.rowid in (select rowid from link_fts where link_fts match ${match(columns)}))`;
        const { rows } = await sql<{ id: string }>`
          select d.link_id as id from (
            select f.rowid, ${inTier('title')} + ${inTier('title tags')} as tier from link_fts f
            where link_fts match ${match('title tags url body')} ${visible}
            order by tier desc, f.rowid desc
            limit ${limit}
          ) r join search_docs d on d.rowid = r.rowid
          order by r.tier desc, r.rowid desc`.execute(this.db);
        return rows.map((r) => r.id);
      }
      // A large library: each tier's query walks the index newest first and stops at `limit` rows.
      // The newest `limit` of a wider tier hold at least as many rows of its own as the narrower
      // tiers lack, so the best tier per row over the three, in order, is exact; computing every
      // match's tier read all of them (12k rows for "typescript" in a 100k-link library: 38 → 6.5 ms).
      const tier = (columns: FtsColumns, rank: number) => sql`
        select * from (select f.rowid, ${rank} as tier from link_fts f
          where link_fts match ${match(columns)} ${visible}
          order by f.rowid desc limit ${limit})`;
      const { rows } = await sql<{ id: string }>`
        select d.link_id as id from (
          select rowid, max(tier) as tier from (
            ${tier('title', 2)} union all ${tier('title tags', 1)} union all ${tier('title tags url body', 0)}
          ) group by rowid
          order by tier desc, rowid desc
          limit ${limit}
        ) r join search_docs d on d.rowid = r.rowid
        order by r.tier desc, r.rowid desc`.execute(this.db);
      return rows.map((r) => r.id);
    }
    const query = (weights: TsWeights) => sql`to_tsquery('english', ${tsQueryText(terms, weights)})`;
    // Tiers as on SQLite: every word in the title (A), in the title or tags (AB), anywhere.
    const tier = sql`case when s.rank_document @@ ${query('A')} then 2 when s.rank_document @@ ${query('AB')} then 1 else 0 end`;
    const nonEmpty = sql`numnode(${query('')}) > 0`;
    if (userLinks <= PER_USER_SCAN_MAX) {
      // A small library: test the user's own rows ((user_id, link_id) index) instead of GIN, whose prefix
      // lookup collects every user's matches first (100-link user among 1.1M rows: 18–68 ms by GIN,
      // 0.3–0.6 ms this way; 100k links this way: ~290 ms, hence the limit).
      const { rows } = await sql<{ id: string }>`
        with s as materialized (select link_id, document, rank_document from link_search where user_id = ${userId})
        select s.link_id as id from s
        where s.document @@ ${query('')} and ${nonEmpty} ${visible}
        order by ${tier} desc, s.link_id desc
        limit ${limit}`.execute(this.db);
      return rows.map((r) => r.id);
    }
    // A large library: each tier's newest `limit` matches. First among the user's newest `window`
    // rows, a backward walk over (user_id, link_id) that stops at `limit` matches; a tier the window
    // holds fewer of is rare in this library, and its matches are then read through GIN instead:
    // the title tiers through the small title-and-tags index, the rest through the full one, with
    // prefixes expanded into stored lexemes (`expandedTsQuery`). The best tier per row over the
    // three, in order, is exact, as SQLite's per-tier walks are.
    const known = knownTerms(terms);
    const newest = (weights: TsWeights, column: 'rank_document' | 'document') => sql`
      select s.link_id from (
        select link_id, rank_document, document from link_search
        where user_id = ${userId} order by link_id desc
        limit ${column === 'document' ? Math.ceil(this.window / ANYWHERE_SHARE) : this.window}
      ) s
      where s.${sql.ref(column)} @@ ${query(weights)} and ${nonEmpty} and ${known} ${visible}
      order by s.link_id desc limit ${limit}`;
    const gin = ginQuery(userId, terms);
    // Every match of a tier by GIN, only when its walk fell short. A CTE of its own, so the planner
    // cannot turn it into a newest-first walk over every user's rows (the primary key) to meet the
    // limit; the user_id test is kept out of the index choice (`|| ''`), since intersecting GIN's
    // result with the user's 100k index entries cost more (30 ms) than rechecking the few rows.
    const byIndex = (walk: string, indexed: RawBuilder<unknown>, tier: RawBuilder<unknown>) => sql`
      select s.link_id from link_search s
      where (s.user_id || '') = ${userId} and ${indexed} @@ ${gin}
        and ${tier} and ${nonEmpty} ${visible}
        and (select count(*) from ${sql.raw(walk)}) < ${limit}`;
    const head = sql`link_search_head(s.rank_document, s.user_id)`;
    return this.db.transaction().execute(async (trx) => {
      await this.tune(trx);
      const { rows } = await sql<{ id: string }>`
        with w2 as materialized (${newest('A', 'rank_document')}),
          w1 as materialized (${newest('AB', 'rank_document')}),
          w0 as materialized (${newest('', 'document')}),
          g2 as materialized (${byIndex('w2', head, sql`s.rank_document @@ ${query('A')}`)}),
          g1 as materialized (${byIndex('w1', head, sql`s.rank_document @@ ${query('AB')}`)}),
          g0 as materialized (${byIndex('w0', sql`s.document`, documentRecheck(terms))})
        select link_id as id from (
          select link_id, 2 as tier from w2 union all select link_id, 1 from w1 union all select link_id, 0 from w0
          union all (select link_id, 2 from g2 order by link_id desc limit ${limit})
          union all (select link_id, 1 from g1 order by link_id desc limit ${limit})
          union all (select link_id, 0 from g0 order by link_id desc limit ${limit})
        ) hits
        group by link_id
        order by max(tier) desc, link_id desc
        limit ${limit}`.execute(trx);
      return rows.map((r) => r.id);
    });
  }

  /**
   * PostgreSQL settings for the large-library statement, for its transaction only: the GIN bitmap's
   * memory (`SEARCH_WORK_MEM`), the cost of random reads (`SEARCH_RANDOM_PAGE_COST`), and no JIT
   * compilation. The planner's cost for the statement's materialized parts passes `jit_above_cost`
   * though it runs in milliseconds, and compiling it took 46–60 ms of a 100 ms run.
   */
  private async tune(trx: Kysely<DB>): Promise<void> {
    await sql`select set_config('work_mem', ${SEARCH_WORK_MEM}, true), set_config('jit', 'off', true),
      set_config('random_page_cost', ${SEARCH_RANDOM_PAGE_COST}, true)`.execute(trx);
  }

  /**
   * Known spellings for the typo path, lower case, starting with one of `initials`: on PostgreSQL
   * the user's own words (`search_words`, kept by a trigger: search-index/schema.postgres.ts); on
   * SQLite the user's own words for a library of up to PER_USER_SCAN_MAX links, every user's
   * indexed words beyond.
   */
  async spellings(userId: string, initials: string[], userLinks: number): Promise<string[]> {
    if (initials.length === 0) return [];
    if (this.engine === 'postgres') return this.storedWords(userId, initials);
    return userLinks <= PER_USER_SCAN_MAX ? this.userTerms(userId, initials) : this.indexedTerms(initials);
  }

  private async storedWords(userId: string, initials: string[]): Promise<string[]> {
    const ranges = initials.map((c) => sql`(word >= ${c} and word < ${afterPrefix(c)})`);
    const { rows } = await sql<{ word: string }>`
      select word from search_words where user_id = ${userId} and (${sql.join(ranges, sql` or `)})`.execute(this.db);
    // Words are split on non-alphanumerics by the database; keep only what the query syntax allows.
    return rows.map((r) => r.word).filter((w) => /^[\p{L}\p{N}]+$/u.test(w));
  }

  /**
   * SQLite, small library: the words of the user's own links that correct typos (titles, tags,
   * category, URLs, notes and the start of the descriptions: `SQLITE_TYPO_TEXT`, what PostgreSQL's
   * `search_words` holds), lower case, starting with one of `initials`.
   */
  private async userTerms(userId: string, initials: string[]): Promise<string[]> {
    const { rows } = await sql<{ text: string }>`
      select ${sql.raw(SQLITE_TYPO_TEXT)} as text from links l where l.user_id = ${userId}`.execute(this.db);
    const wanted = new Set(initials);
    const words = new Set<string>();
    for (const row of rows) {
      for (const [word] of row.text.toLocaleLowerCase('en-US').matchAll(/[\p{L}\p{N}]+/gu)) {
        if (word.length >= 3 && wanted.has(word.slice(0, 1))) words.add(word);
      }
    }
    return [...words];
  }

  /**
   * SQLite, large library: indexed words (every user's, `link_words`: search-index/schema.sqlite.ts) of 3+ letters
   * that start with one of `initials`: a B-tree range. The index's own term list (`fts5vocab`) reads
   * the entries of every term it returns: 27–58 ms per typo search on 1.1M links.
   */
  private async indexedTerms(initials: string[]): Promise<string[]> {
    const ranges = initials.map(
      (c) => sql`select word from link_words where word >= ${c} and word < ${afterPrefix(c)} and length(word) >= 3`,
    );
    const { rows } = await sql<{ word: string }>`${sql.join(ranges, sql` union all `)}`.execute(this.db);
    return rows.map((r) => r.word);
  }

  /**
   * `#tag`: the user's viewable links carrying the tag (by normalised key), newest first. Driven
   * from the tag's rows: walking the user's links newest first and probing each for the tag read
   * thousands of rows for a tag on 0.4 % of a 100k-link library (19 ms against 2.4 ms, SQLite).
   */
  async tagHits(userId: string, key: string, cutoff: Cutoff | null, limit: number): Promise<string[]> {
    let query = this.db
      .selectFrom('links')
      .select('links.id')
      .where('links.user_id', '=', userId)
      .where(tagMatches(userId, key));
    if (cutoff) query = query.where(withinCutoff(cutoff));
    const rows = await query.orderBy('links.created_at', 'desc').orderBy('links.id', 'desc').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /** Moves whenever one of the user's vectors changes or a link is deleted (database triggers). */
  async version(userId: string): Promise<number> {
    const row = await this.db.selectFrom('users').select('search_version').where('id', '=', userId).executeTakeFirst();
    return Number(row?.search_version ?? 0);
  }

  /** Every stored vector of the user's links for one model. */
  async vectors(userId: string, model: string): Promise<StoredVector[]> {
    const rows = await this.db
      .selectFrom('embeddings as e')
      .innerJoin('links as l', 'l.id', 'e.link_id')
      .select(['e.link_id', 'e.vector', 'l.created_at'])
      .where('l.user_id', '=', userId)
      .where('e.model', '=', model)
      .execute();
    return rows.map((r) => ({ linkId: r.link_id, createdAt: r.created_at, bytes: r.vector }));
  }

  /**
   * The links whose vector changed between two versions of the user (the log rows the triggers
   * wrote for each move in `(from, to]`), each with its vector of `model` now, or none when it was
   * removed, its link deleted, or it is of another model. Null when the log lacks some of those
   * moves (pruned, or written before the log existed): the caller then loads every vector.
   */
  async vectorChanges(userId: string, model: string, from: number, to: number): Promise<VectorChange[] | null> {
    const rows = await this.db
      .selectFrom('search_vector_log as g')
      .leftJoin('embeddings as e', (join) => join.onRef('e.link_id', '=', 'g.link_id').on('e.model', '=', model))
      .leftJoin('links as l', (join) => join.onRef('l.id', '=', 'e.link_id').on('l.user_id', '=', userId))
      .select(['g.link_id', 'e.vector', 'l.created_at'])
      .where('g.user_id', '=', userId)
      .where('g.seq', '>', from)
      .where('g.seq', '<=', to)
      .execute();
    if (rows.length !== to - from) return null;
    const byLink = new Map<string, VectorChange>();
    for (const r of rows) {
      const present = r.created_at !== null && r.vector !== null;
      byLink.set(r.link_id, {
        linkId: r.link_id,
        createdAt: present ? Number(r.created_at) : 0,
        bytes: present ? r.vector : null,
      });
    }
    return [...byLink.values()];
  }
}
