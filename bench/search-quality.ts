/**
 * Search quality on the shared page corpus: 88 pages saved as links, paraphrase queries phrased with
 * words that are not in their target page (other pages on the same story count as relevant too),
 * plus exact-title and #tag queries. Reports success@5 and MRR@10 for text-only search (the Free
 * plan) and hybrid search (the Pro plan), through the real HTTP API on both engines.
 *
 *   npm run bench:quality                      # both engines
 *   BENCH_ENGINES=sqlite npm run bench:quality
 *
 * Each link is saved with its real URL and its publisher as a tag, then analysed by the server's own
 * AnalysisService (extraction, offline category, summary, page text, vector), with a fetcher that
 * answers the corpus HTML instead of the network: the index and the vectors hold what production
 * stores. The queries are checked twice: no query word may start a word of the target's text
 * (sharedWords, stop words aside), and no query word may match the target in the text index itself
 * (the engine's stemming; every indexed field, all the stored page text). The run stops if one does.
 *
 * Queries without a `set` were written with the first build; `"set": "heldout"` marks the ones
 * written later, before any ranking change was measured on them (bench/RESULTS.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { createApiClient, type ApiClient } from '@linkwise/contract';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, type Engine } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrator.js';
import type { DB } from '../apps/server/src/db/schema.js';
import { SubscriptionRepository } from '../apps/server/src/modules/billing/subscription.repository.js';
import { EmbeddingRepository } from '../apps/server/src/modules/embeddings/embedding.repository.js';
import { LinkAnalysisRepository } from '../apps/server/src/modules/links/link-analysis.repository.js';
import { LinkAnalysisService } from '../apps/server/src/modules/links/link-analysis.service.js';
import { LinkRepository } from '../apps/server/src/modules/links/link.repository.js';
import { AnalysisService } from '../apps/server/src/modules/analysis/analysis.service.js';
import { analyzeLinkSpec } from '../apps/server/src/modules/links/analyze-link.job.js';
import { JobQueue } from '../apps/server/src/platform/jobs/job-queue.js';
import { JobRepository } from '../apps/server/src/platform/jobs/job.repository.js';
import { CategoryModel } from '../apps/server/src/modules/analysis/category-model.js';
import type { Embedder } from '../apps/server/src/modules/ml/embedder.js';
import { WorkerExtractor } from '../apps/server/src/modules/pages/extractor.js';
import type { FetchedPage, PageFetcher } from '../apps/server/src/modules/pages/fetcher.js';
import { SearchRepository } from '../apps/server/src/modules/search/search.repository.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import {
  CORPUS_DIR,
  documentOf,
  loadCorpus,
  sharedWords,
  STOP,
  NOTHING_QUERIES,
  type CorpusPage,
} from './lib/corpus.js';
import { createEmbedder } from './lib/embedder.js';
import { createBenchDatabase } from './lib/postgres.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()) as Engine[];
const log = (m: string) => console.error(`[quality ${new Date().toISOString().slice(11, 19)}] ${m}`);

interface Query {
  query: string;
  relevant: string[];
  /** `heldout`: written after the first build; `extended`: written with the transformer model's evaluation. */
  set?: 'heldout' | 'extended';
  /** Set for a query in another language than English (it may share one word with its target). */
  lang?: string;
}

const NOTHING = NOTHING_QUERIES;

/** Words a non-English query may share with its target: at most one (a name, a loan word). */
const MAX_SHARED = (q: Query) => (q.lang ? 1 : 0);

interface Score {
  successAt5: number;
  mrrAt10: number;
  n: number;
}

/** success@5: a relevant page in the top 5; MRR@10: mean of 1 / rank of the first relevant page in the top 10. */
export function score(rankings: { ranked: string[]; relevant: string[] }[]): Score {
  let hits = 0;
  let rr = 0;
  for (const { ranked, relevant } of rankings) {
    const rank = ranked.slice(0, 10).findIndex((name) => relevant.includes(name)) + 1;
    if (rank >= 1 && rank <= 5) hits++;
    if (rank >= 1) rr += 1 / rank;
  }
  return { successAt5: hits / rankings.length, mrrAt10: rr / rankings.length, n: rankings.length };
}

/** Saves every page as a link (real URL, publisher as tag); analysis fills the rest. */
async function saveCorpus(api: ApiClient, pages: CorpusPage[]): Promise<Map<string, string>> {
  const nameById = new Map<string, string>();
  for (const page of pages) {
    const link = await api.createLink({ body: { url: page.url, tags: page.publisher ? [page.publisher] : [] } });
    nameById.set(link.id, page.name);
  }
  return nameById;
}

/** A fetcher that answers each corpus page's HTML for its URL, as the network would. */
function corpusFetcher(pages: CorpusPage[]): PageFetcher {
  const html = new Map(pages.map((p) => [p.url, readFileSync(path.join(CORPUS_DIR, p.name, 'input.html'), 'utf8')]));
  const fetcher: Pick<PageFetcher, 'fetch' | 'close'> = {
    fetch: (url: string): Promise<FetchedPage> => {
      const page = html.get(url);
      if (page === undefined) throw new Error(`no corpus page for ${url}`);
      return Promise.resolve({ url, status: 200, contentType: 'text/html', html: page, truncated: false });
    },
    close: () => Promise.resolve(),
  };
  return fetcher as PageFetcher;
}

const queryWords = (query: string) =>
  [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => !STOP.has(w));

/**
 * The text each link's vector is made of (the analysis embeds title, description and the first
 * 300 words of the page; the summary, category, tags and URL are added to be strict), in an
 * in-memory FTS5 table with the tokenizer of the search index (migration 0004), so "the same word"
 * means what the index means by it: porter stems, no diacritics.
 */
async function visibleDocuments(db: Kysely<DB>, nameById: Map<string, string>) {
  const links = await db
    .selectFrom('links as l')
    .leftJoin('page_contents as p', 'p.link_id', 'l.id')
    .select(['l.id', 'l.title', 'l.description', 'l.ai_description', 'l.category', 'l.url', 'p.text'])
    .execute();
  const tags = await db
    .selectFrom('link_tags as lt')
    .innerJoin('tags as t', 't.id', 'lt.tag_id')
    .select(['lt.link_id', 't.name'])
    .execute();
  const fts = new Sqlite(':memory:');
  fts.exec(
    `create virtual table doc using fts5(name unindexed, body, tokenize = 'porter unicode61 remove_diacritics 2')`,
  );
  const insert = fts.prepare('insert into doc(name, body) values (?, ?)');
  for (const l of links) {
    const words = (l.text ?? '').split(/\s+/).slice(0, 300).join(' ');
    const tagText = tags.filter((t) => t.link_id === l.id).map((t) => t.name);
    insert.run(
      nameById.get(l.id) ?? '',
      [l.title, l.description, l.ai_description, l.category, l.url, ...tagText, words].join(' '),
    );
  }
  const match = fts.prepare('select 1 from doc where doc match ? and name = ?');
  return {
    has: (name: string, word: string) => match.get(`body:"${word}"`, name) !== undefined,
    close: () => fts.close(),
  };
}

async function runEngine(engine: Engine, embedder: Embedder, queries: Query[], pages: CorpusPage[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkwise-quality-'));
  const pg = engine === 'postgres' ? await createBenchDatabase() : undefined;
  try {
    // The Free limit is raised so a Free user can hold the whole corpus: Free searches text only.
    const config = loadConfig({
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      BILLING: 'simulated',
      FREE_LINK_LIMIT: '1000',
      JOBS_ENABLED: 'false',
      RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
      ...(pg && { DATABASE_URL: pg.url }),
    });
    const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 4 });
    await migrateToLatest(database);
    const app = await buildApp({ config, database, embedder });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const signUp = async (name: string) => {
      const stamp = `${name}${Date.now()}`;
      const { token } = await createApiClient({ baseUrl, getToken: () => undefined }).register({
        body: { email: `${stamp}@example.com`, username: stamp, password: 'correct horse' },
      });
      return createApiClient({ baseUrl, getToken: () => token });
    };
    const text = await signUp('free');
    const hybrid = await signUp('pro');
    // Pro through the simulated checkout, as a browser pays; the page names APP_URL, not this port.
    const { url } = await hybrid.createCheckout({ body: { plan: 'monthly' } });
    await fetch(`${baseUrl}${new URL(url).pathname}/pay`, { method: 'POST', redirect: 'manual' });
    if ((await hybrid.subscriptionStatus()).status !== 'active') throw new Error('the Pro user is not active');

    // The analysis job's own code path, with the corpus instead of the network.
    const { db } = database;
    const extractor = new WorkerExtractor();
    const analysis = new LinkAnalysisService({
      links: new LinkRepository(db, engine),
      analyses: new LinkAnalysisRepository(db),
      embeddings: new EmbeddingRepository(db, engine),
      analysis: new AnalysisService({
        fetcher: corpusFetcher(pages),
        extractor,
        embedder,
        categories: new CategoryModel(embedder),
        llm: null,
        llmPolicy: { timeoutMs: 1000, attempts: 1, backoffBaseMs: 1 },
        log: app.log,
      }),
      subscriptions: new SubscriptionRepository(db),
      queue: new JobQueue(new JobRepository(db, engine), systemClock, [analyzeLinkSpec]),
      fetchIcon: () => Promise.resolve(null),
      vectorMissing: () => Promise.resolve(),
      billingMode: config.BILLING,
      clock: systemClock,
      log: app.log,
    });
    const nameById = new Map<string, string>();
    const t0 = performance.now();
    for (const [api, name] of [
      [text, 'free'],
      [hybrid, 'pro'],
    ] as const) {
      const userId = (await api.me()).user.id;
      for (const [id, page] of await saveCorpus(api, pages)) {
        nameById.set(id, page);
        await analysis.enrich(userId, id);
      }
      log(`${engine}: ${name}: ${pages.length} links saved and analysed`);
    }
    await extractor.close();
    log(`${engine}: analysed ${pages.length * 2} links in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const rank = async (api: ApiClient, query: string) =>
      (await api.search({ query: { query, limit: 10 } })).data.map((l) => nameById.get(l.id) ?? '?');
    const run = async (api: ApiClient, set: Query[]) => {
      const rankings = [];
      for (const q of set) rankings.push({ ranked: await rank(api, q.query), relevant: q.relevant });
      return score(rankings);
    };
    // Query embedding time through the same worker the server uses.
    const embedTimes: number[] = [];
    for (const q of queries) {
      const e0 = performance.now();
      await embedder.embed([q.query]);
      embedTimes.push(performance.now() - e0);
    }
    embedTimes.sort((a, b) => a - b);

    const firstSet = queries.filter((q) => !q.set && !q.lang);
    const heldoutSet = queries.filter((q) => q.set === 'heldout');
    const titled = pages.filter((p) => p.title.trim().split(/\s+/).length >= 2).slice(0, 40);
    const titleQueries = titled.map((p) => ({ query: p.title.slice(0, 200), relevant: [p.name] }));
    const tagQueries = [...new Set(pages.map((p) => p.publisher).filter((p): p is string => Boolean(p)))]
      .slice(0, 30)
      .map((publisher) => ({
        query: `#${publisher}`,
        relevant: pages.filter((p) => p.publisher === publisher).map((p) => p.name),
      }));
    // Honesty checks. (1) No query word may occur, after the index's own stemming, in what the
    // target's vector is made of: title, description, summary, category, tags, URL and the first 300
    // words of its page text. The run stops if one does. (2) Words that occur only deeper in the
    // stored page text (which only the full-text index reads, and text search needs every word)
    // are counted and listed in the report.
    const visible = await visibleDocuments(db, nameById);
    const deep: string[] = [];
    const leaks: string[] = [];
    const index = new SearchRepository(db, engine);
    const freeId = (await text.me()).user.id;
    for (const q of queries) {
      const target = q.relevant[0] ?? '';
      const ids = [...nameById].filter(([, name]) => name === target).map(([id]) => id);
      let allowed = MAX_SHARED(q);
      for (const word of queryWords(q.query)) {
        if (visible.has(target, word) && allowed-- <= 0) leaks.push(`"${q.query}" (${target}): ${word}`);
        else if (
          (await index.textHits(freeId, [{ word, prefix: false, alternatives: [] }], null, 200)).some((id) =>
            ids.includes(id),
          )
        ) {
          deep.push(`"${q.query}" (${target}): ${word}`);
        }
      }
    }
    visible.close();
    if (leaks.length) throw new Error(`query words found in what their target's vector sees:\n${leaks.join('\n')}`);
    const misses: { q: Query; top: string[] }[] = [];
    // How long each paraphrase's whole answer is (up to 100 links) and whether its target is anywhere in
    // it: a tail of weak matches makes answers longer without finding more.
    const answers = { results: 0, targets: { text: 0, hybrid: 0 } };
    for (const q of queries) {
      const whole = (await hybrid.search({ query: { query: q.query, limit: 100 } })).data;
      answers.results += whole.length;
      if (whole.some((l) => q.relevant.includes(nameById.get(l.id) ?? ''))) answers.targets.hybrid++;
      const words = (await text.search({ query: { query: q.query, limit: 100 } })).data;
      if (words.some((l) => q.relevant.includes(nameById.get(l.id) ?? ''))) answers.targets.text++;
      const found = whole.slice(0, 10);
      const top = found.slice(0, 5).map((l) => nameById.get(l.id) ?? '?');
      // How each result was found (t: words, s: meaning) and how sure the ranking was.
      const shown = found
        .slice(0, 5)
        .map((l) => `${nameById.get(l.id) ?? '?'} ${l.match_type[0]}${l.similarity.toFixed(2)}`);
      const at = found.findIndex((l) => q.relevant.includes(nameById.get(l.id) ?? ''));
      if (!top.some((name) => q.relevant.includes(name)))
        misses.push({ q, top: [...shown, at >= 0 ? `(target at ${at + 1})` : '(target not in 10)'] });
      // BENCH_VERBOSE=1: also the queries whose target is found but not first, and what came before it.
      else if (process.env.BENCH_VERBOSE && at > 0)
        log(`${engine}: target at ${at + 1}: "${q.query}" → ${shown.join(', ')}`);
    }
    // Gibberish and unrelated queries: how many answer nothing, as they should.
    let empty = { text: 0, hybrid: 0 };
    for (const q of NOTHING) {
      if ((await rank(text, q)).length === 0) empty = { ...empty, text: empty.text + 1 };
      const found = await rank(hybrid, q);
      if (found.length === 0) empty = { ...empty, hybrid: empty.hybrid + 1 };
      else log(`${engine}: "${q}" found ${found.slice(0, 3).join(', ')}…`);
    }
    const english = queries.filter((q) => !q.lang);
    const result = {
      engine,
      empty,
      answers,
      english: { text: await run(text, english), hybrid: await run(hybrid, english) },
      extended: {
        text: await run(
          text,
          english.filter((q) => q.set === 'extended'),
        ),
        hybrid: await run(
          hybrid,
          english.filter((q) => q.set === 'extended'),
        ),
      },
      foreign: {
        text: await run(
          text,
          queries.filter((q) => q.lang),
        ),
        hybrid: await run(
          hybrid,
          queries.filter((q) => q.lang),
        ),
      },
      embedP50: embedTimes[Math.floor(embedTimes.length / 2)] ?? NaN,
      paraphrase: { text: await run(text, queries), hybrid: await run(hybrid, queries) },
      first: { text: await run(text, firstSet), hybrid: await run(hybrid, firstSet) },
      heldout: { text: await run(text, heldoutSet), hybrid: await run(hybrid, heldoutSet) },
      title: { text: await run(text, titleQueries), hybrid: await run(hybrid, titleQueries) },
      tag: { text: await run(text, tagQueries), hybrid: await run(hybrid, tagQueries) },
      misses,
      deep,
    };
    await app.close();
    await database.close();
    return result;
  } finally {
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const pages = loadCorpus();
const byName = new Map(pages.map((p) => [p.name, p]));
const queries = JSON.parse(readFileSync(path.join(BENCH_DIR, 'search-queries.json'), 'utf8')) as Query[];
// The first relevant page is the query's target and must share none of its words; the others
// report the same story elsewhere and count as relevant too.
for (const q of queries) {
  for (const name of q.relevant) if (!byName.has(name)) throw new Error(`unknown page ${name}`);
  const target = byName.get(q.relevant[0] ?? '');
  const shared = target ? sharedWords(q.query, `${documentOf(target)} ${target.publisher ?? ''}`) : ['(no target)'];
  if (shared.length > MAX_SHARED(q)) throw new Error(`"${q.query}" shares ${shared.join(', ')} with ${target?.name}`);
}
const embedder = await createEmbedder();
log(`model ${embedder.modelId} (${embedder.dimensions} dims)`);
const fmt = (s: Score) => `${s.successAt5.toFixed(2)} / ${s.mrrAt10.toFixed(2)}`;
const lines = [
  '| engine | query set (n) | text-only success@5 / MRR@10 | hybrid success@5 / MRR@10 |',
  '| --- | --- | --- | --- |',
];
for (const engine of ENGINES) {
  const r = await runEngine(engine, embedder, queries, pages);
  lines.push(
    `| ${engine} | paraphrases, all (${r.paraphrase.text.n}) | ${fmt(r.paraphrase.text)} | ${fmt(r.paraphrase.hybrid)} |`,
  );
  lines.push(`| ${engine} | … first set (${r.first.text.n}) | ${fmt(r.first.text)} | ${fmt(r.first.hybrid)} |`);
  lines.push(
    `| ${engine} | … held-out set (${r.heldout.text.n}) | ${fmt(r.heldout.text)} | ${fmt(r.heldout.hybrid)} |`,
  );
  lines.push(
    `| ${engine} | … English, no word shared (${r.english.text.n}) | ${fmt(r.english.text)} | ${fmt(r.english.hybrid)} |`,
  );
  lines.push(
    `| ${engine} | … extended set (${r.extended.text.n}) | ${fmt(r.extended.text)} | ${fmt(r.extended.hybrid)} |`,
  );
  lines.push(`| ${engine} | … non-English (${r.foreign.text.n}) | ${fmt(r.foreign.text)} | ${fmt(r.foreign.hybrid)} |`);
  lines.push(
    `| ${engine} | nothing to find: empty answers (${NOTHING.length}) | ${r.empty.text}/${NOTHING.length} | ${r.empty.hybrid}/${NOTHING.length} |`,
  );
  lines.push(
    `| ${engine} | paraphrases: targets anywhere in the answer, answer length (mean, ≤ 100) | ${r.answers.targets.text}/${queries.length} | ${r.answers.targets.hybrid}/${queries.length}, ${(r.answers.results / queries.length).toFixed(1)} links |`,
  );
  lines.push(`| ${engine} | exact titles (${r.title.text.n}) | ${fmt(r.title.text)} | ${fmt(r.title.hybrid)} |`);
  lines.push(`| ${engine} | #tags (${r.tag.text.n}) | ${fmt(r.tag.text)} | ${fmt(r.tag.hybrid)} |`);
  for (const miss of r.misses) {
    log(
      `${engine}: hybrid miss${miss.q.set ? ' (held-out)' : ''}: "${miss.q.query}" (${miss.q.relevant[0]}) → ${miss.top.join(', ')}`,
    );
  }
  log(`${engine}: ${r.deep.length} query words occur only deeper in their target's page text: ${r.deep.join('; ')}`);
  log(`${engine}: query embedding p50 ${r.embedP50.toFixed(1)} ms (${queries.length} queries, warm worker)`);
}
await embedder.close();
console.log(lines.join('\n'));
