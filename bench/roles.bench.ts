/**
 * Process roles: one `ROLE=api` + one `ROLE=worker` process against one `ROLE=all` process, under the
 * same link-analysis load, and the idle memory of each role.
 *
 *   npm run bench:roles -w @linkwise/bench                 # ~16 min; builds first if sources changed
 *   BENCH_ORDER=all,split,split,all npm run bench:roles -w @linkwise/bench     # ABBA order (~18 min)
 *   (the memory part waits up to 90 s per reading for a process to go idle: about 6 min per entry)
 *   BENCH_PARTS=throughput|memory|imports|query …         # one part only (comma-separated)
 *   BENCH_ENTRIES=built …                                  # memory of the built output only (default source,built)
 *
 * Real server processes (from the TypeScript sources through tsx, and for memory also the built
 * output `npm start` runs) on copies of one seeded PostgreSQL database: one user with BENCH_LINKS
 * links (bulk SQL, `analysis_status = 'done'`, each with the vector and page text of a corpus page,
 * so no job starts by itself and search is hybrid), and a second user who saves BENCH_RATE new links
 * a second through the API during the measurement, pointing at the corpus pages served on
 * 127.0.0.1, so the analysis jobs (fetch, extract, embed) keep the CPU busy. autocannon then loads
 * /api/health, /api/links?limit=24 and /api/search (fixed queries) in turn. Memory: VmRSS of each
 * role 2 s after each step and once idle, after its first model use and (worker) after analysing
 * BUSY_LINKS links in a row (also with smaller V8 semi-spaces), and of a bare Node
 * process importing the server's packages with one group left out (what that group costs).
 * Query vectors (`query`): BENCH_QUERIES distinct queries embedded by a built worker through the
 * relay an `api` process uses (LISTEN/NOTIFY round trip), alternating with the same model in this
 * process's worker thread (what `ROLE=all` does); p50/p99 of each and the largest difference between
 * the two vectors of a query.
 * Results: bench/.tmp/roles-last-run.md and .json (copied by hand into bench/RESULTS.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrator.js';
import { vectorBytes } from '../apps/server/src/modules/embeddings/vector-bytes.js';
import { EmbedRelay } from '../apps/server/src/modules/ml/embed-relay.js';
import { pageText } from '../apps/server/src/modules/ml/embedder.js';
import { CORPUS_DIR, corpusFacts } from './lib/corpus.js';
import { FROM_SOURCES, startServerProcess } from './lib/child-server.js';
import { PG_ADMIN_URL } from './lib/postgres.js';
import { mulberry32 } from './lib/random.js';
import { seed, type BenchUser } from './lib/seed.js';
import { cleanUpOnSignals, cleanupAll, owe, using } from './lib/cleanup.js';
import { BENCH_MODELS_DIR, createEmbedder } from './lib/embedder.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');
const TMP = path.join(BENCH_DIR, '.tmp');
const WORK = path.join(TMP, `roles-${process.pid}`);
const ENTRIES = {
  source: FROM_SOURCES,
  built: [path.join(SERVER_DIR, 'dist/main.js')],
} as const;
type Entry = keyof typeof ENTRIES;
type Role = 'all' | 'api' | 'worker';
type Kind = 'all' | 'split';

const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
};
const SEED = num('BENCH_SEED', 20261124);
const LINKS = Math.round(num('BENCH_LINKS', 2000));
const DURATION = num('BENCH_DURATION', 10);
const CONNECTIONS = Math.round(num('BENCH_CONNECTIONS', 10));
/** New links a second while a scenario is measured (the route allows 300 a minute per user). */
const RATE = Math.min(4.5, num('BENCH_RATE', 4));
/** Seconds of analysis load before the first measurement: the worker has loaded its models by then. */
const PRELOAD = 5;
const WARMUP = 2;
/** V8 young-generation limits tried on the built `api` process (MB per semi-space). */
const SEMI_SPACE_FLAGS = ['--max-semi-space-size=1', '--max-semi-space-size=4'];
/** Seconds a process is left alone before its memory is read. */
const SETTLE_MS = 2000;
/**
 * Then the reading once the process is idle: V8 shrinks its heaps some seconds after the last
 * work, so RSS is sampled each second until 20 samples in a row set no new low (at most 90 s).
 */
const IDLE_STABLE_SAMPLES = 20;
const IDLE_MAX_MS = 90_000;
/** Links the worker analyses one after another before its last memory reading. */
const BUSY_LINKS = 20;
const ORDER: Kind[] = (process.env.BENCH_ORDER ?? 'all,split').split(',').map((k) => {
  const kind = k.trim();
  if (kind !== 'all' && kind !== 'split') throw new Error(`BENCH_ORDER: unknown scenario "${kind}" (all, split)`);
  return kind;
});
/** Which parts run (all by default): the throughput scenarios, the memory steps, the import probe. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'throughput,memory,imports,query').split(',').map((p) => p.trim()));
const ENTRY_LIST = (process.env.BENCH_ENTRIES ?? 'source,built').split(',').map((e) => {
  const entry = e.trim();
  if (entry !== 'source' && entry !== 'built')
    throw new Error(`BENCH_ENTRIES: unknown entry "${entry}" (source, built)`);
  return entry;
});
const QUERY_COUNT = Math.round(num('BENCH_QUERIES', 300));
/** /proc reports CPU time in clock ticks of USER_HZ, 100 a second on Linux. */
const TICKS = 100;
const QUERIES = ['kubernetes', 'react performance', 'postgres indexes', 'error handling', 'docker caching'];

const log = (m: string) => console.error(`[roles-bench ${new Date().toISOString().slice(11, 19)}] ${m}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

cleanUpOnSignals(log);

// ---------------------------------------------------------------------------------------------
// PostgreSQL: one seeded database, copied (CREATE DATABASE … TEMPLATE) for every phase.

const SEEDED_DB = `linkwise_roles_${process.pid}_seed`;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
const dropDatabase = (name: string) => admin(`drop database if exists ${name} with (force)`);

/** A fresh copy of the seeded database for one phase; dropped by the returned function. */
async function copyDatabase(label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `linkwise_roles_${process.pid}_${label}`;
  await dropDatabase(name);
  await admin(`create database ${name} template ${SEEDED_DB}`);
  return { url: databaseUrl(name), drop: () => dropDatabase(name) };
}

interface Seeded {
  /** The user whose list and search are measured. */
  measured: BenchUser;
  /** The user who saves links during the measurement (the analysis load). */
  loader: BenchUser;
  links: number;
  vectors: number;
  seconds: number;
}

/** Real vectors of the corpus pages, of the model the servers run (so query vectors land near some of them). */
async function corpusVectors(): Promise<{
  modelId: string;
  dims: number;
  pages: { text: string; vector: Float32Array }[];
}> {
  const texts = corpusFacts()
    .map(({ facts }) => ({ embed: pageText(facts.title, facts.description, facts.text), text: facts.text }))
    .filter((p) => p.text.length > 0);
  const embedder = await createEmbedder();
  try {
    const vectors = await embedder.embed(texts.map((t) => t.embed));
    return {
      modelId: embedder.modelId,
      dims: embedder.dimensions,
      pages: texts.map((t, i) => ({ text: t.text, vector: vectors[i]! })),
    };
  } finally {
    await embedder.close();
  }
}

async function seedDatabase(): Promise<Seeded> {
  const started = performance.now();
  const corpus = await corpusVectors();
  log(`corpus: ${corpus.pages.length} page vectors (${corpus.modelId})`);
  await dropDatabase(SEEDED_DB);
  await admin(`create database ${SEEDED_DB}`);
  owe(() => dropDatabase(SEEDED_DB));
  const database = openDatabase({ databaseUrl: databaseUrl(SEEDED_DB), dataDir: WORK, poolSize: 4 });
  try {
    await migrateToLatest(database);
    const seeded = await seed(database, {
      seed: SEED,
      smallUsers: 3,
      linksPerSmallUser: 20,
      bigLinks: LINKS,
      log: (m) => log(`seed: ${m}`),
    });
    const { db } = database;
    // Analysed already, each with a vector of the server's model: no analysis or re-embedding job
    // starts by itself, so the only background work is the stream of new links.
    await db.updateTable('links').set({ analysis_status: 'done' }).execute();
    const ids = (await db.selectFrom('links').select('id').orderBy('id').execute()).map((r) => r.id);
    const next = mulberry32(SEED + 1);
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids
        .slice(i, i + 500)
        .map((id) => ({ id, page: corpus.pages[Math.floor(next() * corpus.pages.length)]! }));
      await db
        .insertInto('embeddings')
        .values(
          batch.map(({ id, page }) => ({
            link_id: id,
            model: corpus.modelId,
            dims: corpus.dims,
            vector: vectorBytes(page.vector),
            created_at: 0,
          })),
        )
        .execute();
      await db
        .insertInto('page_contents')
        .values(
          batch.map(({ id, page }) => ({
            link_id: id,
            text: page.text,
            language: 'en',
            content_hash: null,
            fetched_at: 0,
          })),
        )
        .execute();
    }
    await sql`vacuum (analyze)`.execute(db);
    return {
      measured: seeded.big,
      loader: seeded.warmup,
      links: seeded.counts.links,
      vectors: ids.length,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await database.close();
  }
}

/** Links of `userId` by analysis status. */
async function statusCounts(url: string, userId: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ s: string; n: number }>(
      'select analysis_status as s, count(*)::int as n from links where user_id = $1 group by 1',
      [userId],
    );
    return Object.fromEntries(rows.map((r) => [r.s, r.n]));
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The corpus pages on loopback, and the stream of new links pointing at them.

async function serveCorpus(): Promise<{
  url: (n: number) => string;
  served: () => number;
  close: () => Promise<void>;
}> {
  const names = readdirSync(CORPUS_DIR).sort();
  const pages = new Map(names.map((n) => [n, readFileSync(path.join(CORPUS_DIR, n, 'input.html'))]));
  let served = 0;
  const server: Server = createHttpServer((req, res) => {
    const name = /^\/p\/\d+\/([\w.-]+)$/.exec(req.url ?? '')?.[1];
    const html = name ? pages.get(name) : undefined;
    if (!html) return void res.writeHead(404).end();
    served += 1;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // A distinct URL per link (the server refuses duplicates), cycling through the pages.
    url: (n) => `http://127.0.0.1:${port}/p/${n}/${names[n % names.length]}`,
    served: () => served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Stream {
  counts: () => { created: number; failed: number };
  stop: () => Promise<void>;
}

/** Numbers the links saved in this run: each gets a URL of its own. */
let nextLink = 0;

/**
 * Saves `RATE` links a second through the API until stopped (at most `maxSeconds` worth), without
 * waiting for one answer before the next save (at most 8 in flight), so a slow answer keeps the rate.
 */
function startStream(apiUrl: string, token: string, pageUrl: (n: number) => string, maxSeconds: number): Stream {
  let stopped = false;
  let created = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const save = async (n: number) => {
    try {
      const res = await fetch(`${apiUrl}/api/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: pageUrl(n) }),
      });
      await res.arrayBuffer();
      if (res.status === 201) created += 1;
      else failed += 1;
    } catch {
      failed += 1;
    }
  };
  const running = (async () => {
    const t0 = performance.now();
    const total = Math.ceil(maxSeconds * RATE);
    for (let i = 0; i < total && !stopped; i++) {
      const wait = t0 + (i * 1000) / RATE - performance.now();
      if (wait > 0) await sleep(wait);
      if (inFlight.size >= 8) await Promise.race(inFlight);
      if (stopped) break;
      const request = save(nextLink++).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
  })();
  return {
    counts: () => ({ created, failed }),
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Server processes.

interface Proc {
  role: Role;
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/** The server as its own process, in `role`; resolves once it answers /api/health. */
async function launch(role: Role, entry: Entry, databaseUrl: string, flags: string[] = []): Promise<Proc> {
  const env = {
    ROLE: role,
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(WORK, 'data'),
    // The provisioned offline model (scripts/provision-model.py); never the public hub.
    MODELS_DIR: BENCH_MODELS_DIR,
    MODEL_DOWNLOAD: 'false',
    FETCH_ALLOW_PRIVATE: 'true',
    BILLING: 'off',
    LOG_LEVEL: 'error',
    // One user's searches under load: the per-account limit would answer 429.
    RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  };
  const logFile = path.join(WORK, `${entry}-${role}.log`);
  const probe = { path: '/api/health', headers: {} };
  const server = await startServerProcess(env, ROOT, logFile, probe, [...flags, ...ENTRIES[entry]]);
  return { role, ...server };
}

/** Starts the processes (in this order), runs `fn`, and stops them, also when `fn` fails. */
async function withProcesses<T>(
  start: { roles: Role[]; entry: Entry; databaseUrl: string; flags?: string[] },
  fn: (procs: Proc[]) => Promise<T>,
): Promise<T> {
  const procs: Proc[] = [];
  return using(
    () => Promise.all(procs.map((p) => p.stop())),
    async () => {
      for (const role of start.roles) procs.push(await launch(role, start.entry, start.databaseUrl, start.flags));
      return fn(procs);
    },
  );
}

const statusFile = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
/** Resident and peak resident memory in MB (whole process: main thread, worker threads, native). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const text = statusFile(pid);
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}
/** CPU seconds a process has used so far (all its threads). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}
/** Busy and total CPU time of the whole machine so far (every process, PostgreSQL and others included). */
function machineCpu(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
}

// ---------------------------------------------------------------------------------------------
// Throughput scenarios.

interface TargetResult {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

interface ScenarioResult {
  kind: Kind;
  label: string;
  targets: TargetResult[];
  seconds: number;
  linksCreated: number;
  createFailures: number;
  analysed: number;
  analysisFailed: number;
  backlog: number;
  /** CPU seconds per process during the measurement. */
  cpu: Record<string, number>;
  /** Share of the machine's two cores busy during the measurement (everything on it). */
  machineBusy: number;
  load: [number, number];
  searchResults: string;
  /** Median ms of one request at a time, before the analysis load started. */
  quiet: { list: number; search: number };
}

async function hammer(name: string, baseUrl: string, paths: string[], token?: string): Promise<TargetResult> {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  const result = await autocannon({
    url: `${baseUrl}${paths[0]}`,
    connections: CONNECTIONS,
    duration: DURATION,
    timeout: 10,
    headers,
    ...(paths.length > 1 && { requests: paths.map((p) => ({ method: 'GET', path: p })) }),
    warmup: { connections: CONNECTIONS, duration: WARMUP },
  });
  const r = {
    name,
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  log(`  ${name}: ${r.reqPerSec.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
  if (r.non2xx > 0 || r.errors > 0) log(`  WARNING ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

const searchPath = (q: string) => `/api/search?query=${encodeURIComponent(q)}`;

async function runScenario(
  kind: Kind,
  round: number,
  seeded: Seeded,
  pageUrl: (n: number) => string,
): Promise<ScenarioResult> {
  const label = `${kind === 'all' ? 'A: all' : 'B: api + worker'} #${round}`;
  log(label);
  const db = await copyDatabase(`${kind}${round}`);
  return using(db.drop, () =>
    withProcesses(
      { roles: kind === 'all' ? ['all'] : ['api', 'worker'], entry: 'source', databaseUrl: db.url },
      async (procs) => {
        const front = procs[0]!;
        const auth = { authorization: `Bearer ${seeded.measured.token}` };
        // Warm-up, and a check that the measured requests answer what they should.
        const list = (await (await fetch(`${front.url}/api/links?limit=24`, { headers: auth })).json()) as {
          total: number;
        };
        if (list.total !== LINKS) throw new Error(`list total ${list.total}, expected ${LINKS}`);
        const hits: number[] = [];
        for (const q of QUERIES) {
          const res = await fetch(`${front.url}${searchPath(q)}`, { headers: auth });
          const body = (await res.json()) as { data: { match_type: string }[] };
          if (res.status !== 200) throw new Error(`search "${q}" answered ${res.status}`);
          hits.push(body.data.length);
          if (q === QUERIES[0] && !body.data.some((d) => d.match_type === 'semantic')) {
            log('  note: the first query found no semantic-only match (hybrid search still embeds it)');
          }
        }
        // One request at a time before the analysis load starts: what the routes cost alone.
        const alone = async (paths: string[]) => {
          const times: number[] = [];
          for (let i = 0; i < 20; i++) {
            const t = performance.now();
            const res = await fetch(`${front.url}${paths[i % paths.length]}`, { headers: auth });
            await res.arrayBuffer();
            times.push(performance.now() - t);
          }
          return median(times);
        };
        const quiet = { list: await alone(['/api/links?limit=24']), search: await alone(QUERIES.map(searchPath)) };
        log(`  alone, one at a time: list ${quiet.list.toFixed(1)} ms, search ${quiet.search.toFixed(1)} ms (medians)`);
        const windowSeconds = PRELOAD + 3 * (DURATION + WARMUP) + 10;
        const stream = startStream(front.url, seeded.loader.token, pageUrl, windowSeconds + 30);
        return using(stream.stop, async () => {
          await sleep(PRELOAD * 1000);
          const before = await statusCounts(db.url, seeded.loader.id);
          const cpu0 = procs.map((p) => cpuOf(p.pid));
          const m0 = machineCpu();
          const load0 = loadavg()[0]!;
          const t0 = performance.now();
          const targets = [
            await hammer('GET /api/health', front.url, ['/api/health']),
            await hammer('GET /api/links?limit=24', front.url, ['/api/links?limit=24'], seeded.measured.token),
            await hammer(
              `GET /api/search (${QUERIES.length} queries)`,
              front.url,
              QUERIES.map(searchPath),
              seeded.measured.token,
            ),
          ];
          const seconds = (performance.now() - t0) / 1000;
          const m1 = machineCpu();
          const after = await statusCounts(db.url, seeded.loader.id);
          const created = stream.counts();
          const result: ScenarioResult = {
            kind,
            label,
            targets,
            seconds,
            linksCreated: created.created,
            createFailures: created.failed,
            analysed: (after.done ?? 0) - (before.done ?? 0),
            analysisFailed: after.failed ?? 0,
            backlog: after.pending ?? 0,
            cpu: Object.fromEntries(procs.map((p, i) => [p.role, cpuOf(p.pid) - cpu0[i]!])),
            machineBusy: (m1.busy - m0.busy) / (m1.total - m0.total),
            load: [load0, loadavg()[0]!],
            searchResults: `${Math.min(...hits)}–${Math.max(...hits)}`,
            quiet,
          };
          log(
            `  analysis: ${result.analysed} links done in the window (${(result.analysed / seconds).toFixed(2)}/s), ` +
              `backlog ${result.backlog}, failed ${result.analysisFailed}; CPU ${JSON.stringify(result.cpu)}`,
          );
          return result;
        });
      },
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Memory.

interface MemoryRow {
  entry: Entry;
  role: Role;
  state: string;
  rss: number;
  /** RSS once it stopped falling (IDLE_STABLE_SAMPLES seconds without a new low). */
  idle: number;
  peak: number;
}

/** The lowest RSS of `pid` once it has stopped falling for IDLE_STABLE_SAMPLES seconds. */
async function idleRss(pid: number): Promise<number> {
  let low = memoryOf(pid).rss;
  let calm = 0;
  for (let waited = 0; calm < IDLE_STABLE_SAMPLES && waited < IDLE_MAX_MS; waited += 1000) {
    await sleep(1000);
    const rss = memoryOf(pid).rss;
    if (rss < low - 1) calm = 0;
    else calm++;
    low = Math.min(low, rss);
  }
  return low;
}

async function waitAnalysed(url: string, linkId: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    for (let i = 0; i < 300; i++) {
      const { rows } = await client.query<{ s: string }>('select analysis_status as s from links where id = $1', [
        linkId,
      ]);
      const status = rows[0]?.s ?? 'missing';
      if (status !== 'pending') return status;
      await sleep(200);
    }
    return 'pending (timed out after 60 s)';
  } finally {
    await client.end();
  }
}

async function memoryPhase(entry: Entry, seeded: Seeded, pageUrl: (n: number) => string): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  const read = async (proc: Proc, state: string) => {
    await sleep(SETTLE_MS);
    const first = memoryOf(proc.pid);
    const idle = await idleRss(proc.pid);
    const m = { ...first, idle, peak: memoryOf(proc.pid).peak };
    rows.push({ entry, role: proc.role, state, ...m });
    log(
      `  ${entry} ${proc.role}, ${state}: RSS ${m.rss.toFixed(0)} MB, idle ${idle.toFixed(0)} (peak ${m.peak.toFixed(0)})`,
    );
  };
  const auth = { authorization: `Bearer ${seeded.measured.token}` };
  const get = async (url: string, headers?: Record<string, string>) => {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  };
  const fewRequests = async (base: string) => {
    await get(`${base}/api/health`);
    await get(`${base}/api/config`);
    for (let i = 0; i < 5; i++) await get(`${base}/api/links?limit=24&page=${i + 1}`, auth);
  };
  const analyseOne = async (base: string, dbUrl: string) => {
    const res = await fetch(`${base}/api/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seeded.loader.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl(nextLink++) }),
    });
    const { id } = (await res.json()) as { id: string };
    const status = await waitAnalysed(dbUrl, id);
    if (status !== 'done') throw new Error(`the analysed link ended ${status}`);
  };

  const split = await copyDatabase(`${entry}_mem_split`);
  await using(split.drop, () =>
    withProcesses({ roles: ['api'], entry, databaseUrl: split.url }, async ([api]) => {
      await read(api!, 'started');
      await fewRequests(api!.url);
      await read(api!, 'after health, config and 5 list requests');
      await withProcesses({ roles: ['worker'], entry, databaseUrl: split.url }, async ([worker]) => {
        await read(worker!, 'started (model loaded: it warms up before it embeds for api processes)');
        await analyseOne(api!.url, split.url);
        await read(worker!, 'after analysing one link (extraction and model loaded)');
        // The api's query is embedded by the worker (decision 0018): the api loads vectors, no model.
        for (const q of QUERIES) await get(`${api!.url}${searchPath(q)}`, auth);
        await read(api!, `after ${QUERIES.length} hybrid searches (vectors loaded, queries embedded by the worker)`);
        await read(worker!, `after embedding ${QUERIES.length} queries for the api`);
        // A worker that has been busy: freed activations must not pile up (decision 0021).
        for (let i = 0; i < BUSY_LINKS; i++) await analyseOne(api!.url, split.url);
        await read(worker!, `after analysing ${BUSY_LINKS} more links one after another`);
      });
    }),
  );
  const all = await copyDatabase(`${entry}_mem_all`);
  await using(all.drop, () =>
    withProcesses({ roles: ['all'], entry, databaseUrl: all.url }, async ([proc]) => {
      await read(proc!, 'started');
      await fewRequests(proc!.url);
      await read(proc!, 'after health, config and 5 list requests');
      await analyseOne(proc!.url, all.url);
      await read(proc!, 'after analysing one link (extraction and model loaded)');
      await get(`${proc!.url}${searchPath(QUERIES[0]!)}`, auth);
      await read(proc!, 'after one hybrid search');
    }),
  );
  // A V8 setting, not a code change: a smaller young generation (V8 grows it to 2 × 16 MB by default).
  for (const [i, flags] of (entry === 'built' ? SEMI_SPACE_FLAGS : []).entries()) {
    const db = await copyDatabase(`${entry}_mem_semi${i}`);
    await using(db.drop, () =>
      withProcesses({ roles: ['api'], entry, databaseUrl: db.url, flags: [flags] }, async ([api]) => {
        await fewRequests(api!.url);
        await read(api!, `after health, config and 5 list requests, node ${flags}`);
      }),
    );
  }
  return rows;
}

/**
 * RSS of a bare Node process that imports the packages the server imports at start-up, all of them
 * and each group left out in turn: the difference is what not loading that group would save.
 */
const IMPORT_GROUPS: Record<string, string[]> = {
  'tfjs (model runtime)': ['@tensorflow/tfjs-core', '@tensorflow/tfjs-converter', '@tensorflow/tfjs-backend-wasm'],
  'page extraction': ['linkedom', '@mozilla/readability', 'smartquotes', 'iconv-lite'],
  'LLM SDKs': ['openai', '@google/genai'],
  ioredis: ['ioredis'],
  'prom-client': ['prom-client'],
  'better-sqlite3': ['better-sqlite3'],
  'Fastify and plugins': [
    'fastify',
    '@fastify/cors',
    '@fastify/helmet',
    '@fastify/rate-limit',
    '@fastify/swagger',
    '@fastify/static',
    'fastify-type-provider-zod',
  ],
  'pg, kysely': ['pg', 'kysely'],
  'zod, contract, undici, argon2, small ones': [
    'zod',
    '@linkwise/contract',
    'undici',
    '@node-rs/argon2',
    'lru-cache',
    'normalize-url',
    'ipaddr.js',
    'close-with-grace',
    'uuid',
  ],
};

/** Groups an `api` process needs only in some set-ups, or not at all: candidates for a lazy import. */
const LAZY_GROUPS = ['tfjs (model runtime)', 'page extraction', 'LLM SDKs', 'ioredis', 'prom-client', 'better-sqlite3'];

function importCost(modules: string[]): { rss: number; heap: number } {
  const code = `for (const m of ${JSON.stringify(modules)}) await import(m);
gc(); await new Promise((r) => setTimeout(r, 300)); gc();
const { rss, heapUsed } = process.memoryUsage();
console.log(JSON.stringify({ rss, heapUsed }));`;
  // From the server's folder, so the packages resolve as they do for the server.
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], {
    cwd: SERVER_DIR,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`import probe failed: ${run.stderr}`);
  const { rss, heapUsed } = JSON.parse(run.stdout) as { rss: number; heapUsed: number };
  return { rss: rss / 1048576, heap: heapUsed / 1048576 };
}

interface ImportRow {
  group: string;
  /** Median RSS (MB) of 3 processes, and the median heap used after gc. */
  rss: number;
  heap: number;
}

function importProbe(): ImportRow[] {
  const everything = Object.values(IMPORT_GROUPS).flat();
  const without = (groups: string[]) => everything.filter((m) => !groups.some((g) => IMPORT_GROUPS[g]!.includes(m)));
  const row = (group: string, modules: string[]): ImportRow => {
    const runs = [0, 1, 2].map(() => importCost(modules));
    return { group, rss: median(runs.map((r) => r.rss)), heap: median(runs.map((r) => r.heap)) };
  };
  const rows = [row('bare Node (nothing imported)', []), row('every package the server imports', everything)];
  for (const group of Object.keys(IMPORT_GROUPS)) rows.push(row(`all but ${group}`, without([group])));
  rows.push(row(`all but the ${LAZY_GROUPS.length} lazy candidates (${LAZY_GROUPS.join(', ')})`, without(LAZY_GROUPS)));
  for (const r of rows) log(`  imports, ${r.group}: RSS ${r.rss.toFixed(1)} MB, heap ${r.heap.toFixed(1)} MB`);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Report.

const f0 = (v: number) => v.toFixed(0);
const f2 = (v: number) => v.toFixed(2);

function report(
  meta: Record<string, string>,
  seeded: Seeded,
  scenarios: ScenarioResult[],
  memory: MemoryRow[],
  imports: ImportRow[],
  query?: QueryResult,
): string {
  const out: string[] = [`# Process roles run ${meta.date}`, ''];
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  out.push(
    `- data: ${seeded.links} links (${LINKS} for the measured user), ${seeded.vectors} vectors, seeded in ${f0(seeded.seconds)} s`,
    '',
    `## Throughput under analysis load (${CONNECTIONS} connections, ${DURATION} s each after ${WARMUP} s warm-up, ${RATE} new links/s)`,
    '',
    '| scenario | route | req/s | p50 ms | p99 ms | ratio to health | non-2xx | errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const s of scenarios) {
    const health = s.targets[0]!.reqPerSec;
    for (const t of s.targets) {
      out.push(
        `| ${s.label} | ${t.name} | ${f0(t.reqPerSec)} | ${t.p50} | ${t.p99} | ${f2(t.reqPerSec / health)} | ${t.non2xx} | ${t.errors} |`,
      );
    }
  }
  out.push(
    '',
    '| scenario | links saved | analysed in window | analysed/s | backlog at end | failed | CPU s by process | machine busy | load (1 min) | search results |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |',
  );
  for (const s of scenarios) {
    const cpu = Object.entries(s.cpu)
      .map(([role, v]) => `${role} ${v.toFixed(1)}`)
      .join(', ');
    out.push(
      `| ${s.label} | ${s.linksCreated}${s.createFailures ? ` (+${s.createFailures} refused)` : ''} | ${s.analysed} | ${f2(s.analysed / s.seconds)} | ${s.backlog} | ${s.analysisFailed} | ${cpu} (of ${f0(s.seconds * availableParallelism())}) | ${f0(s.machineBusy * 100)} % | ${s.load.map((l) => l.toFixed(1)).join(' → ')} | ${s.searchResults} |`,
    );
  }
  const first = (kind: Kind) => scenarios.filter((s) => s.kind === kind);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const a = first('all');
  const b = first('split');
  if (a.length > 0 && b.length > 0) {
    out.push(
      '',
      '## B (api + worker) / A (all)',
      '',
      'Ratio to health per round, then B/A of the means over rounds.',
      '',
      '| route | ratio to health, A rounds | ratio to health, B rounds | req/s B/A | ratio to health B/A | p50 B/A | p99 B/A |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: |',
    );
    a[0]!.targets.forEach((t, i) => {
      type Pick = (r: TargetResult, health: TargetResult) => number;
      const each = (runs: ScenarioResult[], pick: Pick) => runs.map((s) => pick(s.targets[i]!, s.targets[0]!));
      const ratio = (pick: Pick) => f2(mean(each(b, pick)) / mean(each(a, pick)));
      const toHealth: Pick = (r, h) => r.reqPerSec / h.reqPerSec;
      out.push(
        `| ${t.name} | ${each(a, toHealth).map(f2).join(', ')} | ${each(b, toHealth).map(f2).join(', ')} | ${ratio((r) => r.reqPerSec)} | ${ratio(toHealth)} | ${ratio((r) => r.p50)} | ${ratio((r) => r.p99)} |`,
      );
    });
    const perSecond = (runs: ScenarioResult[]) => runs.map((s) => f2(s.analysed / s.seconds)).join(', ');
    out.push('', `Links analysed a second in the window: A ${perSecond(a)}; B ${perSecond(b)}.`);
  }
  out.push(
    '',
    `## Memory (VmRSS ${SETTLE_MS / 1000} s after each step; idle = once it stopped falling for ${IDLE_STABLE_SAMPLES} s; peak = VmHWM)`,
    '',
    '| entry | role | state | RSS MB | idle MB | peak MB |',
    '| --- | --- | --- | ---: | ---: | ---: |',
  );
  for (const m of memory)
    out.push(`| ${m.entry} | ${m.role} | ${m.state} | ${f0(m.rss)} | ${f0(m.idle)} | ${f0(m.peak)} |`);
  if (imports.length > 0) {
    const all = imports[1]!;
    out.push(
      '',
      '## What the start-up imports cost (bare Node process, `--expose-gc`, after gc, median of 3)',
      '',
      '| imports | RSS MB | RSS saved vs all | heap used MB | heap saved vs all |',
      '| --- | ---: | ---: | ---: | ---: |',
    );
    for (const r of imports) {
      const saved = (v: number) => (r.group.startsWith('all but') ? v.toFixed(1) : '');
      out.push(
        `| ${r.group} | ${r.rss.toFixed(1)} | ${saved(all.rss - r.rss)} | ${r.heap.toFixed(1)} | ${saved(all.heap - r.heap)} |`,
      );
    }
  }
  if (query) {
    out.push(
      '',
      `## Query vectors: ${query.model}, ${query.count} distinct queries, one at a time, alternating`,
      '',
      '| where the query is embedded | p50 ms | p99 ms | mean ms |',
      '| --- | ---: | ---: | ---: |',
      `| a built worker, through the relay (\`ROLE=api\`) | ${f2(query.relay.p50)} | ${f2(query.relay.p99)} | ${f2(query.relay.mean)} |`,
      `| this process's worker thread (\`ROLE=all\`) | ${f2(query.local.p50)} | ${f2(query.local.p99)} | ${f2(query.local.mean)} |`,
      '',
      `Relay / in-process: p50 ${f2(query.relay.p50 / query.local.p50)}×, p99 ${f2(query.relay.p99 / query.local.p99)}×. ` +
        `Largest difference between a query's two vectors: ${query.maxDiff.toExponential(1)}.`,
    );
  }
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Query vectors: through a worker (the api role) against in-process.

interface Timing {
  p50: number;
  p99: number;
  mean: number;
}
interface QueryResult {
  model: string;
  count: number;
  relay: Timing;
  local: Timing;
  maxDiff: number;
}

const timing = (ms: number[]): Timing => {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    p50: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN,
    mean: ms.reduce((a, b) => a + b, 0) / ms.length,
  };
};

async function queryLatency(): Promise<QueryResult> {
  log('query vectors: relay vs in-process');
  const copy = await copyDatabase('query');
  return using(copy.drop, () =>
    withProcesses({ roles: ['worker'], entry: 'built', databaseUrl: copy.url }, async () => {
      const database = openDatabase({ databaseUrl: copy.url, dataDir: WORK, poolSize: 2 });
      const relay = new EmbedRelay(database, { now: Date.now, queryTimeoutMs: 10_000, documentTimeoutMs: 10_000 });
      const local = await createEmbedder();
      try {
        for (let i = 0; i < 300 && (await relay.live()).length === 0; i++) await sleep(200);
        const next = mulberry32(SEED + 2);
        const words = QUERIES.join(' ').split(' ');
        // Distinct texts: the relay's cache of recent query vectors never answers.
        const texts = Array.from(
          { length: QUERY_COUNT + 20 },
          (_, i) => [0, 1, 2].map(() => words[Math.floor(next() * words.length)]).join(' ') + ` ${i}`,
        );
        const relayMs: number[] = [];
        const localMs: number[] = [];
        let maxDiff = 0;
        for (const [i, text] of texts.entries()) {
          let t = performance.now();
          const [a] = await relay.embed(local.modelId, [text], 'query', local.dimensions);
          const r = performance.now() - t;
          t = performance.now();
          const [b] = await local.embed([text], 'query');
          const l = performance.now() - t;
          // The first 20 warm both paths up.
          if (i < 20) continue;
          relayMs.push(r);
          localMs.push(l);
          for (let k = 0; k < a!.length; k++) maxDiff = Math.max(maxDiff, Math.abs(a![k]! - b![k]!));
        }
        const result = {
          model: local.modelId,
          count: QUERY_COUNT,
          relay: timing(relayMs),
          local: timing(localMs),
          maxDiff,
        };
        log(
          `  relay p50 ${f2(result.relay.p50)} ms p99 ${f2(result.relay.p99)} ms; in-process p50 ${f2(result.local.p50)} ms p99 ${f2(result.local.p99)} ms`,
        );
        return result;
      } finally {
        await local.close();
        await relay.close();
        await database.close();
      }
    }),
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  mkdirSync(WORK, { recursive: true });
  if (!existsSync(CORPUS_DIR)) throw new Error(`the page corpus is required (${CORPUS_DIR})`);
  // The built output is measured too: build it now if sources changed, not in the middle of a run.
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/ensure-built.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: 600_000,
  });
  if (built.status !== 0) throw new Error('the build failed');
  const loadStart = loadavg()[0]!;
  const seeded = await seedDatabase();
  log(`seeded ${seeded.links} links in ${seeded.seconds.toFixed(0)} s`);
  const pages = await serveCorpus();
  owe(pages.close);

  const scenarios: ScenarioResult[] = [];
  for (const [i, kind] of PARTS.has('throughput') ? ORDER.entries() : []) {
    scenarios.push(await runScenario(kind, i + 1, seeded, pages.url));
  }
  const memory: MemoryRow[] = [];
  for (const entry of PARTS.has('memory') ? ENTRY_LIST : []) {
    log(`memory, ${entry}`);
    memory.push(...(await memoryPhase(entry, seeded, pages.url)));
  }
  const imports = PARTS.has('imports') ? importProbe() : [];
  const query = PARTS.has('query') ? await queryLatency() : undefined;
  const served = pages.served();
  await cleanupAll(log);
  // The servers' logs stay after a failure (WORK), for reading.
  rmSync(WORK, { recursive: true, force: true });

  const meta = {
    date: new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
    machine: `${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM`,
    node: process.version,
    command: `BENCH_SEED=${SEED} BENCH_LINKS=${LINKS} BENCH_DURATION=${DURATION} BENCH_CONNECTIONS=${CONNECTIONS} BENCH_RATE=${RATE} BENCH_ORDER=${ORDER.join(',')} npm run bench:roles -w @linkwise/bench`,
    'load (1 min)': `${loadStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end`,
    'corpus pages served': String(served),
    duration: `${((performance.now() - started) / 1000).toFixed(0)} s`,
  };
  const markdown = report(meta, seeded, scenarios, memory, imports, query);
  mkdirSync(TMP, { recursive: true });
  writeFileSync(path.join(TMP, 'roles-last-run.md'), markdown);
  writeFileSync(
    path.join(TMP, 'roles-last-run.json'),
    JSON.stringify({ meta, scenarios, memory, imports, query }, null, 2),
  );
  console.log(markdown);
  log(`done in ${meta.duration}; report in bench/.tmp/roles-last-run.md`);
}

main().catch(async (error: unknown) => {
  console.error(error);
  log(`server logs kept in ${WORK}`);
  await cleanupAll(log);
  process.exit(1);
});
