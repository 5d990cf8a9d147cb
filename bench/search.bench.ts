/**
 * Search benchmark: GET /api/search for a user with 100,000 links and for a user with 100 links
 * among 1,000,000 others, on SQLite and PostgreSQL.
 *
 *   npm run bench:search                                                  # both engines, full size
 *   BENCH_ENGINES=sqlite BENCH_SMALL_USERS=100 BENCH_BIG_LINKS=5000 npm run bench:search   # quick
 *   BENCH_KEEP=1 npm run bench:search     # keeps the seeded data (bench/.tmp/search-sqlite-kept, database
 *                                         # linkwise_bench_search_kept) and reuses it on the next run with
 *                                         # BENCH_KEEP=1 and the same sizes; delete them yourself afterwards
 *   BENCH_ONLY="100 links among 1M" …     # only the scenarios whose name contains the text
 *   BENCH_DIMS=1280 BENCH_RANKING=1 …     # the default offline model's ranking of what the cosine finds
 *
 * Seeding reuses the list benchmark's generator (bench/lib/seed.ts); the full-text index is filled
 * by the migration's triggers as rows arrive. Every link of the measured users gets a 512-dimension
 * vector and, unless BENCH_PAGE_TEXT=0, the page text of a corpus page. The server runs in this
 * process with an embedder that answers a fixed vector per query text (no model), so the figures
 * are search time excluding the query embedding, as the target asks; the model's own time per
 * query (USE-lite in its worker thread) is measured separately.
 *
 * Stored and query vectors share one common direction plus independent noise, so every pair has a
 * cosine of about 0.36, like related sentence-encoder vectors: every row passes the noise floor and
 * the top-k, fusion and hydration work is the full amount (independent random vectors would all fall
 * below the floor and leave that work out).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, type Engine } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrator.js';
import type { DB } from '../apps/server/src/db/schema.js';
import {
  DEFAULT_CALIBRATION,
  normalize,
  WorkerEmbedder,
  type Embedder,
} from '../apps/server/src/modules/ml/embedder.js';
import { MINILM_BGE_USE_MULTILINGUAL } from '../apps/server/src/modules/ml/local-models.js';
import { SearchRepository } from '../apps/server/src/modules/search/search.repository.js';
import { MIN_COSINE } from '../apps/server/src/modules/search/search.service.js';
import { vectorBytes } from '../apps/server/src/modules/embeddings/vector-bytes.js';
import { buildVectors, sizeOf, topK } from '../apps/server/src/modules/search/vector-index.js';
import { rebuildSearchIndex, suspendSearchIndexing } from '../apps/server/src/modules/search-index/search-index.js';
import { QueryRecorder, runScenario, type LatencyResult, type Scenario } from './lib/latency.js';
import { corpusFacts } from './lib/corpus.js';
import { createBenchDatabase } from './lib/postgres.js';
import { mulberry32 } from './lib/random.js';
import { seed, type BenchUser } from './lib/seed.js';
import { ms, percentile } from './lib/stats.js';
import { BENCH_MODELS_DIR } from './lib/embedder.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const TMP = path.join(BENCH_DIR, '.tmp');
const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return Math.round(v);
};
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()) as Engine[];
const SMALL_USERS = num('BENCH_SMALL_USERS', 10_000);
const BIG_LINKS = num('BENCH_BIG_LINKS', 100_000);
const SAMPLES = num('BENCH_SAMPLES', 300);
const WARMUP = num('BENCH_WARMUP', 30);
const KEEP = process.env.BENCH_KEEP === '1';
/** Runs only the scenarios whose name contains this text (e.g. "100 links among 1M"). */
const ONLY = process.env.BENCH_ONLY ?? '';
/**
 * Page text on every link of the measured users (as the analysis job stores it for saved pages):
 * each link gets the extracted text of one of the 88 corpus pages. `BENCH_PAGE_TEXT=0` leaves it out,
 * as in rounds 1–4 (data kept before this option existed is not reused: seed it again).
 */
const PAGE_TEXT = process.env.BENCH_PAGE_TEXT !== '0';
/** Vector size of the stored vectors (BENCH_DIMS: 384 MiniLM, 512 USE-lite, 896 MiniLM + USE multilingual). */
const DIMS = num('BENCH_DIMS', 512);
const MODEL = 'bench-fixed-vectors';
/**
 * BENCH_RANKING=1 (with BENCH_DIMS=1280): the default offline model's calibration, whose ranking
 * orders the neighbours its cosine lets through (decision 0022); otherwise USE-lite's, without one.
 */
const CALIBRATION = process.env.BENCH_RANKING === '1' ? MINILM_BGE_USE_MULTILINGUAL.calibration : DEFAULT_CALIBRATION;
if (CALIBRATION.ranking && DIMS !== MINILM_BGE_USE_MULTILINGUAL.dimensions) {
  throw new Error(`BENCH_RANKING=1 needs BENCH_DIMS=${MINILM_BGE_USE_MULTILINGUAL.dimensions}`);
}

const log = (m: string) => console.error(`[search-bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** The direction every bench vector shares (see the header). */
const COMMON = (() => {
  const next = mulberry32(7);
  return Float32Array.from({ length: DIMS }, () => next() * 2 - 1);
})();
const COMMON_NORM = Math.hypot(...COMMON);

/** 0.6 × the common direction + 0.8 × random noise (both unit length): pairwise cosine ≈ 0.36. */
function benchVector(next: () => number): Float32Array {
  const noise = Float32Array.from({ length: DIMS }, () => next() * 2 - 1);
  const noiseNorm = Math.hypot(...noise);
  return noise.map((x, d) => (0.6 * COMMON[d]!) / COMMON_NORM + (0.8 * x) / noiseNorm);
}

/** Deterministic vectors: one per text, from a hash of it. No model: embedding time excluded. */
class FixedEmbedder implements Embedder {
  readonly modelId = MODEL;
  readonly dimensions = DIMS;
  readonly calibration = CALIBRATION;
  close(): Promise<void> {
    return Promise.resolve();
  }
  embed(texts: string[]): Promise<Float32Array[]> {
    return Promise.resolve(
      texts.map((t) => {
        let h = 2166136261;
        for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
        return normalize(benchVector(mulberry32(h >>> 0))); // Embedder returns unit vectors
      }),
    );
  }
}

/** Calls `insert` with the ids of `user`'s links, oldest first, 500 at a time. */
async function inBatchesOfLinks(db: Kysely<DB>, user: BenchUser, insert: (ids: string[]) => Promise<unknown>) {
  const rows = await db.selectFrom('links').select('id').where('user_id', '=', user.id).orderBy('id').execute();
  for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500).map((r) => r.id));
}

/** Gives every link of `user` a vector. */
async function embedAll(db: Kysely<DB>, user: BenchUser, seedValue: number): Promise<void> {
  const next = mulberry32(seedValue);
  const row = (id: string) => ({
    link_id: id,
    model: MODEL,
    dims: DIMS,
    vector: vectorBytes(benchVector(next)),
    created_at: 0,
  });
  await inBatchesOfLinks(db, user, (ids) => db.insertInto('embeddings').values(ids.map(row)).execute());
}

/** The corpus pages' text as the analysis job extracts it (non-empty ones), read once. */
let corpusTexts: string[] | undefined;

/** Gives every link of `user` the extracted text of a corpus page, chosen at random. */
async function addPageText(db: Kysely<DB>, user: BenchUser, seedValue: number): Promise<void> {
  corpusTexts ??= corpusFacts()
    .map(({ facts }) => facts.text)
    .filter((t) => t.length > 0);
  const texts = corpusTexts;
  const next = mulberry32(seedValue);
  const row = (id: string) => ({
    link_id: id,
    text: texts[Math.floor(next() * texts.length)]!,
    language: 'en',
    content_hash: null,
    fetched_at: 0,
  });
  await inBatchesOfLinks(db, user, (ids) => db.insertInto('page_contents').values(ids.map(row)).execute());
}

/** The query embedding alone: USE-lite in its worker thread, warm, one query at a time. */
async function queryEmbeddingTimes(queries: string[]): Promise<number[]> {
  const embedder = new WorkerEmbedder();
  try {
    for (const q of queries) await embedder.embed([q]);
    const times: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (const q of queries) {
        const t0 = performance.now();
        await embedder.embed([q]);
        times.push(performance.now() - t0);
      }
    }
    return times.sort((a, b) => a - b);
  } finally {
    await embedder.close();
  }
}

/** Queries over the generator's vocabulary: words, phrases, prefixes while typing, typos, tags. */
const QUERIES = [
  'kubernetes',
  'react performance',
  'postgres indexes',
  'typescript',
  'error handling',
  'deploym',
  'observ',
  'docker caching',
  'accessibility guide',
  'rust',
  'state management',
  'landing pages',
];
const TYPOS = ['kubernets', 'typscript', 'accesibility', 'obsevability'];
/** The first keystroke of a next word: a one-letter last word, matched as a prefix. */
const TYPING = ['react p', 'kubernetes d', 'state m', 'docker c', 'error h', 'typescript t'];
const TAGS = ['#devops', '#machine learning', '#react', '#security'];

interface Row {
  engine: Engine;
  scenario: string;
  p50: number;
  p99: number;
  queries: number;
  results: string;
  /** p50 of each statement kind, ms. */
  statements: string;
  /** 1-minute load average after the scenario (2 cores). */
  load: number;
}

interface Seeded {
  big: BenchUser;
  smallPro: BenchUser;
  smallFree: BenchUser;
  sizes: { smallUsers: number; bigLinks: number; pageText: boolean };
}

async function seedEngine(
  engine: Engine,
  open: () => ReturnType<typeof openDatabase>,
  notes: string[],
  marker: string,
): Promise<Seeded> {
  const sizes = { smallUsers: SMALL_USERS, bigLinks: BIG_LINKS, pageText: PAGE_TEXT };
  if (KEEP && existsSync(marker)) {
    const kept = JSON.parse(readFileSync(marker, 'utf8')) as Seeded;
    if (JSON.stringify(kept.sizes) !== JSON.stringify(sizes)) {
      throw new Error(`kept ${engine} data has other sizes (${JSON.stringify(kept.sizes)}); delete it first`);
    }
    notes.push(`${engine}: reused the data kept by an earlier run (${JSON.stringify(sizes)})`);
    // Kept data may predate a migration: apply it, and time it (a migration's cost at 1.1M links).
    const migrating = open();
    const m0 = performance.now();
    const applied = await migrateToLatest(migrating);
    await migrating.close();
    if (applied.length > 0) {
      notes.push(
        `${engine}: migrated the kept data (${applied.join(', ')}) in ${((performance.now() - m0) / 1000).toFixed(1)} s`,
      );
    }
    return kept;
  }
  const seeding = open();
  await migrateToLatest(seeding);
  log(`${engine}: seeding ${SMALL_USERS} × 100 links + 1 × ${BIG_LINKS} (full-text index filled by triggers)`);
  // PostgreSQL: a bulk load indexes each link once at the end instead of once per row and tag.
  await suspendSearchIndexing(seeding.db, engine);
  const seeded = await seed(seeding, {
    seed: 20261122,
    smallUsers: SMALL_USERS,
    linksPerSmallUser: 100,
    bigLinks: BIG_LINKS,
    log: (m) => log(`${engine}: ${m}`),
  });
  if (PAGE_TEXT) {
    const p0 = performance.now();
    for (const user of [seeded.big, seeded.smallPro, seeded.smallFree]) await addPageText(seeding.db, user, 3);
    notes.push(
      `${engine}: page text stored for the measured users in ${((performance.now() - p0) / 1000).toFixed(0)} s`,
    );
  }
  if (engine === 'postgres') {
    const i0 = performance.now();
    // The rows, the user's words and the stored lexemes built once from the result, indexing back on.
    await rebuildSearchIndex(seeding.db, engine);
    notes.push(
      `postgres: full-text index built in ${((performance.now() - i0) / 1000).toFixed(0)} s after the bulk load`,
    );
  }
  notes.push(`${engine}: seeded ${JSON.stringify(seeded.counts)} in ${seeded.seconds.toFixed(0)} s`);
  const t0 = performance.now();
  await embedAll(seeding.db, seeded.big, 1);
  await embedAll(seeding.db, seeded.smallPro, 2);
  notes.push(`${engine}: ${BIG_LINKS + 100} vectors stored in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  if (engine === 'postgres') await sql`vacuum (analyze)`.execute(seeding.db);
  else await sql`pragma wal_checkpoint(TRUNCATE)`.execute(seeding.db);
  await seeding.close();
  const result = { big: seeded.big, smallPro: seeded.smallPro, smallFree: seeded.smallFree, sizes };
  if (KEEP) writeFileSync(marker, JSON.stringify(result));
  return result;
}

async function runEngine(engine: Engine): Promise<{ rows: Row[]; notes: string[] }> {
  const dir = path.join(TMP, KEEP ? `search-${engine}-kept` : `search-${engine}-${process.pid}`);
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const pg =
    engine === 'postgres' ? await createBenchDatabase(KEEP ? 'linkwise_bench_search_kept' : undefined) : undefined;
  const notes: string[] = [];
  try {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: path.join(dir, 'data'),
      // The provisioned offline model (scripts/provision-model.py); never the public hub.
      MODELS_DIR: BENCH_MODELS_DIR,
      MODEL_DOWNLOAD: 'false',
      LOG_LEVEL: 'silent',
      // One user searches as fast as the load generator can: the per-account limit would answer 429.
      RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
      BILLING: 'simulated',
      SEARCH_VECTOR_CACHE_MB: '1024',
      // No background jobs: most seeded links have no vector, and re-embedding them (reembed-links)
      // would compete with the requests being timed.
      JOBS_ENABLED: 'false',
      ...(pg && { DATABASE_URL: pg.url }),
    });
    const open = (onQuery?: QueryRecorder['onQuery']) =>
      openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 4, onQuery });
    const marker = path.join(dir, 'seeded.json');
    if (pg && !pg.existed) rmSync(marker, { force: true });
    if (pg?.existed && !existsSync(marker)) throw new Error(`database ${pg.name} was left half-seeded: drop it first`);
    if (!existsSync(marker)) rmSync(path.join(dir, 'data'), { recursive: true, force: true });
    const seeded = await seedEngine(engine, () => open(), notes, marker);

    const recorder = new QueryRecorder();
    const database = open(recorder.onQuery);

    // Vector cache cost: load time and bytes of the 100k user's matrix.
    const repo = new SearchRepository(database.db, engine);
    const l0 = performance.now();
    const loaded = buildVectors(0, MODEL, DIMS, await repo.vectors(seeded.big.id, MODEL));
    const loadMs = performance.now() - l0;
    notes.push(
      `${engine}: vector cache for ${loaded.ids.length} links: ${(sizeOf(loaded) / 1048576).toFixed(1)} MiB, cold load ${loadMs.toFixed(0)} ms`,
    );
    // The in-memory part alone: cosine of every row (WebAssembly SIMD) and the top 100.
    const scan: number[] = [];
    const probe = await new FixedEmbedder().embed(['probe']);
    for (let i = 0; i < 60; i++) {
      const s0 = performance.now();
      topK(loaded, normalize(Float32Array.from(probe[0]!)), 100, MIN_COSINE);
      if (i >= 10) scan.push(performance.now() - s0);
    }
    scan.sort((a, b) => a - b);
    notes.push(
      `${engine}: top-100 over ${loaded.ids.length} int8 vectors in memory: p50 ${ms(percentile(scan, 50))} ms, p99 ${ms(percentile(scan, 99))} ms (load ${loadavg()[0]!.toFixed(1)})`,
    );

    const app = await buildApp({ config, database, embedder: new FixedEmbedder() });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const rows: Row[] = [];
    const measure = async (name: string, user: BenchUser, queries: string[]) => {
      if (ONLY && !name.includes(ONLY)) return;
      const scenario: Scenario = {
        name,
        method: 'GET',
        path: (i) => `/api/search?query=${encodeURIComponent(queries[Math.abs(i) % queries.length] ?? '')}`,
        token: user.token,
        expectStatus: 200,
        warmup: WARMUP,
        samples: SAMPLES,
      };
      const counts: number[] = [];
      for (const q of queries) {
        const res = await fetch(`${baseUrl}/api/search?query=${encodeURIComponent(q)}`, {
          headers: { authorization: `Bearer ${user.token}` },
        });
        counts.push(((await res.json()) as { total: number }).total);
      }
      const result: LatencyResult = await runScenario(baseUrl, recorder, scenario);
      rows.push({
        engine,
        scenario: name,
        p50: result.latency.p50,
        p99: result.latency.p99,
        queries: result.queriesPerRequest,
        results: `${Math.min(...counts)}–${Math.max(...counts)}`,
        statements: result.statements
          .filter((st) => st.p50 >= 0.05 || st.label === 'text hits')
          .map((st) => `${st.label} ${ms(st.p50)}${st.perRequest > 1.05 ? ` ×${st.perRequest.toFixed(1)}` : ''}`)
          .join(' · '),
        load: loadavg()[0]!,
      });
      log(`${engine}: ${name}: p50 ${ms(result.latency.p50)} ms, p99 ${ms(result.latency.p99)} ms`);
    };
    await measure('100k links, Pro (hybrid): words, phrases, prefixes', seeded.big, QUERIES);
    await measure('100k links, Pro (hybrid): typos', seeded.big, TYPOS);
    await measure('100k links: #tag', seeded.big, TAGS);
    await measure('100 links among 1M, Pro (hybrid)', seeded.smallPro, QUERIES);
    await measure('100 links among 1M, Pro (hybrid): typos', seeded.smallPro, TYPOS);
    await measure('100 links among 1M, Free over limit (text, cutoff)', seeded.smallFree, QUERIES);
    await measure('100k links, Pro (hybrid): typing, one-letter last word', seeded.big, TYPING);
    await measure('100 links among 1M, Pro (hybrid): typing, one-letter last word', seeded.smallPro, TYPING);
    await app.close();
    await database.close();
    return { rows, notes };
  } finally {
    if (!KEEP) {
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

const all: Row[] = [];
const notes: string[] = [];
for (const engine of ENGINES) {
  const r = await runEngine(engine);
  all.push(...r.rows);
  notes.push(...r.notes);
}
const embedTimes = await queryEmbeddingTimes([...QUERIES, ...TYPOS]);
notes.push(
  `query embedding (USE-lite worker, warm, ${embedTimes.length} calls): p50 ${ms(percentile(embedTimes, 50))} ms, p99 ${ms(percentile(embedTimes, 99))} ms (load ${loadavg()[0]!.toFixed(1)})`,
);
const table = [
  '| engine | scenario | p50 ms | p99 ms | SQL statements | DB time by statement (p50 ms) | results per query | load (1 min) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...all.map(
    (r) =>
      `| ${r.engine} | ${r.scenario} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.queries} | ${r.statements} | ${r.results} | ${r.load.toFixed(1)} |`,
  ),
].join('\n');
const report = `${table}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`;
mkdirSync(TMP, { recursive: true });
writeFileSync(path.join(TMP, 'search-last-run.md'), report);
console.log(report);
