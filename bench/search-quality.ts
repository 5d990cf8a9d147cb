/**
 * Search quality on the shared page corpus: 88 pages saved as links, 47 queries phrased with words
 * that are not in their target page (checked here: the run stops if one is; other pages on the same
 * story count as relevant too), plus exact-title and
 * #tag queries. Reports success@5 and MRR@10 for text-only search (the Free plan) and hybrid search
 * (the Pro plan), through the real HTTP API on both engines.
 *
 *   npm run bench:quality                      # both engines
 *   BENCH_ENGINES=sqlite npm run bench:quality
 *
 * Text-only is what a Free user gets, hybrid what a Pro user gets; both hold the same links.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, type ApiClient } from '@linkwise/contract';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, type Engine } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrator.js';
import { vectorBytes } from '../apps/server/src/modules/search/vector-index.js';
import { documentOf, loadCorpus, sharedWords, type CorpusPage } from './lib/corpus.js';
import type { Embedder } from '../apps/server/src/modules/analysis/embedder.js';
import { createEmbedder } from './lib/embedder.js';
import { createBenchDatabase } from './lib/postgres.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()) as Engine[];
/** `title`: vectors of title + description only (experiment); default: as the analysis job embeds. */
const EMBED_TEXT = process.env.BENCH_EMBED_TEXT ?? 'page';
const log = (m: string) => console.error(`[quality ${new Date().toISOString().slice(11, 19)}] ${m}`);

interface Query {
  query: string;
  relevant: string[];
}

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

async function saveCorpus(api: ApiClient, pages: CorpusPage[]): Promise<Map<string, string>> {
  const nameById = new Map<string, string>();
  for (const page of pages) {
    const link = await api.createLink({
      body: {
        url: page.url,
        title: page.title,
        description: page.description.slice(0, 5000),
        tags: page.publisher ? [page.publisher] : [],
      },
    });
    nameById.set(link.id, page.name);
  }
  return nameById;
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

    // What the analysis job stores: the page text, and the vector of title, description and text.
    const vectors = new Map<string, Float32Array>();
    const t0 = performance.now();
    for (const page of pages) {
      const parts = EMBED_TEXT === 'title' ? [page.title, page.description] : [page.title, page.description, page.text];
      const [vector] = await embedder.embed([parts.filter(Boolean).join('. ')]);
      if (!vector) throw new Error(`no vector for ${page.name}`);
      vectors.set(page.name, vector);
    }
    log(`${engine}: embedded ${pages.length} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const nameById = new Map<string, string>();
    const { db } = database;
    for (const api of [text, hybrid]) {
      const ids = await saveCorpus(api, pages);
      for (const [id, name] of ids) {
        nameById.set(id, name);
        const page = pages.find((p) => p.name === name);
        if (page?.text) {
          await db
            .insertInto('page_contents')
            .values({ link_id: id, text: page.text, language: null, content_hash: null, fetched_at: Date.now() })
            .execute();
        }
        await db
          .insertInto('embeddings')
          .values({
            link_id: id,
            model: embedder.modelId,
            dims: embedder.dimensions,
            vector: vectorBytes(vectors.get(name) ?? new Float32Array(embedder.dimensions)),
            created_at: Date.now(),
          })
          .execute();
      }
    }

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

    const titled = pages.filter((p) => p.title.trim().split(/\s+/).length >= 2).slice(0, 40);
    const titleQueries = titled.map((p) => ({ query: p.title.slice(0, 200), relevant: [p.name] }));
    const tagQueries = [...new Set(pages.map((p) => p.publisher).filter((p): p is string => Boolean(p)))]
      .slice(0, 30)
      .map((publisher) => ({
        query: `#${publisher}`,
        relevant: pages.filter((p) => p.publisher === publisher).map((p) => p.name),
      }));
    const misses: { q: Query; top: string[] }[] = [];
    for (const q of queries) {
      const top = (await rank(hybrid, q.query)).slice(0, 5);
      if (!top.some((name) => q.relevant.includes(name))) misses.push({ q, top });
    }
    const result = {
      engine,
      embedP50: embedTimes[Math.floor(embedTimes.length / 2)] ?? NaN,
      paraphrase: { text: await run(text, queries), hybrid: await run(hybrid, queries) },
      title: { text: await run(text, titleQueries), hybrid: await run(hybrid, titleQueries) },
      tag: { text: await run(text, tagQueries), hybrid: await run(hybrid, tagQueries) },
      misses,
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
  const shared = target ? sharedWords(q.query, documentOf(target)) : ['(no target)'];
  if (shared.length) throw new Error(`"${q.query}" shares ${shared.join(', ')} with ${target?.name}`);
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
    `| ${engine} | paraphrases (${r.paraphrase.text.n}) | ${fmt(r.paraphrase.text)} | ${fmt(r.paraphrase.hybrid)} |`,
  );
  lines.push(`| ${engine} | exact titles (${r.title.text.n}) | ${fmt(r.title.text)} | ${fmt(r.title.hybrid)} |`);
  lines.push(`| ${engine} | #tags (${r.tag.text.n}) | ${fmt(r.tag.text)} | ${fmt(r.tag.hybrid)} |`);
  for (const miss of r.misses) log(`${engine}: hybrid miss: "${miss.q.query}" → ${miss.top.join(', ')}`);
  log(`${engine}: query embedding p50 ${r.embedP50.toFixed(1)} ms (${queries.length} queries, warm worker)`);
}
await embedder.close();
console.log(lines.join('\n'));
