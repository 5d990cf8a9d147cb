/**
 * Foundation benchmark: the links list and create endpoints at 100k links, on SQLite and PostgreSQL.
 *
 *   npm run bench                                         # both engines, full size (~6 min)
 *   BENCH_ENGINES=sqlite BENCH_SCALE=0.05 npm run bench   # quick run (~45 s)
 *
 * Per engine: seed with a fixed seed through the server's own openDatabase + migrateToLatest, then
 * (1) sequential latency through the real HTTP app in this process, with per-statement timings and
 * the query plans of the statements the list endpoint ran, and (2) throughput with autocannon from
 * this process against the server started as a separate process. Results: bench/.tmp/last-run.md
 * and .json (copied by hand into bench/RESULTS.md with the analysis).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createApiClient, DEFAULT_CATEGORIES } from '@linkwise/contract';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, type Engine } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrator.js';
import { startServerProcess } from './lib/child-server.js';
import { explain, showParameters } from './lib/explain.js';
import { classify, QueryRecorder, runScenario, warmUp, type LatencyResult, type Scenario } from './lib/latency.js';
import { createBenchDatabase } from './lib/postgres.js';
import { seed, type SeedResult } from './lib/seed.js';
import { ms } from './lib/stats.js';
import { load, type ThroughputResult } from './lib/throughput.js';
import { cleanUpOnSignals, cleanupAll, owe, paid } from './lib/cleanup.js';
import { BENCH_MODELS_DIR } from './lib/embedder.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const TMP = path.join(BENCH_DIR, '.tmp');
const { version } = JSON.parse(readFileSync(path.join(BENCH_DIR, '../apps/server/package.json'), 'utf8')) as {
  version: string;
};

function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
}

const ENGINES: Engine[] = (process.env.BENCH_ENGINES ?? 'sqlite,postgres')
  .split(',')
  .map((e) => e.trim())
  .filter(Boolean)
  .map((e) => {
    if (e !== 'sqlite' && e !== 'postgres') throw new Error(`BENCH_ENGINES: unknown engine "${e}" (sqlite, postgres)`);
    return e;
  });
const SCALE = numberEnv('BENCH_SCALE', 1);
const SEED = numberEnv('BENCH_SEED', 20261122);
const SAMPLES = Math.max(300, Math.round(numberEnv('BENCH_SAMPLES', 500)));
const WARMUP = Math.max(30, Math.round(numberEnv('BENCH_WARMUP', 50)));
const DURATION = numberEnv('BENCH_DURATION', 10);
const CONNECTIONS = Math.round(numberEnv('BENCH_CONNECTIONS', 50));
const SMALL_USERS = Math.max(3, Math.round(1000 * SCALE));
const LINKS_PER_SMALL_USER = 100;
const BIG_LINKS = Math.max(2400, Math.round(100_000 * SCALE));
/** Keep the seeded databases for manual investigation (drop/remove them yourself afterwards). */
const KEEP = process.env.BENCH_KEEP === '1';
/** The server limits link creation to 300 per minute per user. */
const CREATE_SAMPLES = 300;

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

interface PlanNote {
  scenario: string;
  label: string;
  ms: number;
  sql: string;
  parameters: string;
  plan: string;
}

interface EngineRun {
  engine: Engine;
  engineVersion: string;
  seed: SeedResult;
  latency: LatencyResult[];
  throughput: ThroughputResult[];
  plans: PlanNote[];
}

cleanUpOnSignals(log);

function listScenarios(seeded: SeedResult): Scenario[] {
  const big = seeded.big.token;
  const get = (name: string, p: string, token = big): Scenario => ({
    name,
    method: 'GET',
    path: () => p,
    token,
    expectStatus: 200,
    warmup: WARMUP,
    samples: SAMPLES,
  });
  return [
    get('health (no auth, 1 query)', '/api/health'),
    get('list 100k: newest, page 1 (default)', '/api/links'),
    get('list 100k: category=Development', '/api/links?category=Development'),
    get('list 100k: page 100, limit 24', '/api/links?page=100&limit=24'),
    get('list 100k: isRead=false (unread)', '/api/links?isRead=false'),
    get('list 100k: sort title asc', '/api/links?sortBy=title&sortOrder=asc'),
    get('list 100k: sort smart', '/api/links?sortBy=smart'),
    get('list 100k: sort updatedAt', '/api/links?sortBy=updatedAt'),
    get('list 100k: sort isRead asc', '/api/links?sortBy=isRead&sortOrder=asc'),
    get('list 100k: sort createdAt asc', '/api/links?sortBy=createdAt&sortOrder=asc'),
    get('list 100 links (Pro user)', '/api/links', seeded.smallPro.token),
    get('list 100 links (Free user over limit: cutoff)', '/api/links', seeded.smallFree.token),
  ];
}

async function runEngine(engine: Engine): Promise<EngineRun> {
  const dir = path.join(TMP, `${engine}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const removeDir = () => Promise.resolve(rmSync(dir, { recursive: true, force: true }));
  owe(removeDir);
  const pg = engine === 'postgres' ? await createBenchDatabase() : undefined;
  if (pg) owe(pg.drop);
  try {
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      DATA_DIR: path.join(dir, 'data'),
      // The provisioned offline model (scripts/provision-model.py); never the public hub.
      MODELS_DIR: BENCH_MODELS_DIR,
      MODEL_DOWNLOAD: 'false',
      BILLING: 'simulated',
      // No background jobs: seeded links have no vector, and re-embedding them (reembed-links)
      // would compete with the requests being timed.
      JOBS_ENABLED: 'false',
      ...(pg && { DATABASE_URL: pg.url }),
    };
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' }, version);
    const open = (onQuery?: QueryRecorder['onQuery']) =>
      openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: config.poolSize, onQuery });

    const seeding = open();
    const closeSeeding = () => seeding.close();
    owe(closeSeeding);
    await migrateToLatest(seeding);
    log(`${engine}: seeding ${SMALL_USERS} users × ${LINKS_PER_SMALL_USER} links + 1 user × ${BIG_LINKS} links`);
    const seeded = await seed(seeding, {
      seed: SEED,
      smallUsers: SMALL_USERS,
      linksPerSmallUser: LINKS_PER_SMALL_USER,
      bigLinks: BIG_LINKS,
      log: (m) => log(`${engine}: ${m}`),
    });
    log(`${engine}: seeded in ${seeded.seconds.toFixed(1)} s: ${JSON.stringify(seeded.counts)}`);
    // Measure a server that starts on a settled database, not on the seeding connection's caches and
    // a WAL full of freshly written pages.
    if (engine === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(seeding.db);
    await seeding.close();
    paid(closeSeeding);

    const recorder = new QueryRecorder();
    const database = open(recorder.onQuery);
    const closeDb = () => database.close();
    owe(closeDb);
    const engineVersion =
      engine === 'sqlite'
        ? `SQLite ${(await sql<{ v: string }>`select sqlite_version() as v`.execute(database.db)).rows[0]?.v}`
        : ((await sql<{ v: string }>`select version() as v`.execute(database.db)).rows[0]?.v ?? '?');

    // 1. Sequential latency, in process.
    const app = await buildApp({ config, database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const closeApp = () => app.close();
    owe(closeApp);

    // Sanity: the typed client validates the response against the contract.
    const check = await createApiClient({ baseUrl, getToken: () => seeded.big.token }).listLinks();
    if (check.total !== BIG_LINKS || check.data.length !== 24) {
      throw new Error(`unexpected list answer: total ${check.total}, ${check.data.length} rows`);
    }

    const latency: LatencyResult[] = [];
    const measure = async (scenario: Scenario) => {
      const result = await runScenario(baseUrl, recorder, scenario);
      latency.push(result);
      log(`${engine}: ${scenario.name}: p50 ${ms(result.latency.p50)} ms, p99 ${ms(result.latency.p99)} ms`);
    };
    // One pass over every read first, so the first scenarios do not pay for JIT compilation.
    const reads = listScenarios(seeded);
    for (const scenario of reads) await warmUp(baseUrl, scenario, 100);
    for (const scenario of reads) await measure(scenario);

    // The big user cancels Pro: the list now computes the Free-limit cutoff on 100k links.
    const setStatus = (status: 'active' | 'canceled') =>
      database.db.updateTable('subscriptions').set({ status }).where('user_id', '=', seeded.big.id).execute();
    await setStatus('canceled');
    await measure({
      name: 'list 100k (downgraded to Free: cutoff)',
      method: 'GET',
      path: () => '/api/links',
      token: seeded.big.token,
      expectStatus: 200,
      warmup: WARMUP,
      samples: SAMPLES,
    });
    await setStatus('active');

    const category = DEFAULT_CATEGORIES[7];
    await measure({
      name: 'create (POST, 100k user, 3 tags)',
      method: 'POST',
      path: () => '/api/links',
      token: seeded.big.token,
      // Warm-up on another user: the route allows 300 creates per minute per user.
      warmupToken: seeded.warmup.token,
      body: (i) => ({
        url: `https://bench.linkwise.example/${engine}/saved/${i < 0 ? `w${-i}` : i}?utm_source=bench`,
        title: `Benchmark article ${i}`,
        description: 'Saved by the benchmark.',
        category,
        tags: ['bench', 'performance', `batch-${Math.abs(i) % 10}`],
        isReadLater: i % 3 === 0,
      }),
      expectStatus: 201,
      warmup: WARMUP,
      samples: CREATE_SAMPLES,
    });

    // Query plans of the statements each request ran (reads only).
    const plans: PlanNote[] = [];
    for (const result of latency) {
      const seen = new Set<string>();
      for (const q of result.lastQueries) {
        const label = classify(q.sql);
        const lower = q.sql.trimStart().toLowerCase();
        if (!lower.startsWith('select') || lower.includes('for update') || seen.has(label)) continue;
        seen.add(label);
        plans.push({
          scenario: result.name,
          label,
          ms: result.statements.find((s) => s.label === label)?.p50 ?? Number.NaN,
          sql: q.sql,
          parameters: showParameters(q.parameters),
          plan: await explain(database, q),
        });
      }
    }

    await app.close();
    paid(closeApp);
    await database.close();
    paid(closeDb);

    // 2. Throughput: the server in its own process, autocannon here.
    const throughput: ThroughputResult[] = [];
    const loadOptions = { connections: CONNECTIONS, seconds: DURATION, warmupSeconds: 3 };
    const auth = { authorization: `Bearer ${seeded.big.token}` };
    const smallAuth = { authorization: `Bearer ${seeded.smallPro.token}` };
    for (const logLevel of ['warn', 'info']) {
      const server = await startServerProcess({ ...env, LOG_LEVEL: logLevel }, dir, path.join(dir, 'server.log'), {
        path: '/api/links',
        headers: auth,
      });
      const stop = () => server.stop();
      owe(stop);
      log(`${engine}: server pid ${server.pid} (LOG_LEVEL=${logLevel}), autocannon ${CONNECTIONS} connections`);
      const runs: [string, string, Record<string, string> | undefined][] =
        logLevel === 'warn'
          ? [
              ['GET /api/links (100k user, page 1)', '/api/links', auth],
              ['GET /api/links (100-link user, page 1)', '/api/links', smallAuth],
              ['GET /api/health (baseline)', '/api/health', undefined],
            ]
          : [['GET /api/links (100k user, page 1), LOG_LEVEL=info', '/api/links', auth]];
      for (const [name, p, headers] of runs) {
        const result = await load(name, server.url, p, { ...loadOptions, headers });
        throughput.push(result);
        if (result.non2xx > 0 || result.errors > 0) {
          log(`${engine}: WARNING ${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors/timeouts`);
        }
        log(`${engine}: ${name}: ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
      }
      await server.stop();
      paid(stop);
    }
    return { engine, engineVersion, seed: seeded, latency, throughput, plans };
  } finally {
    if (KEEP) {
      log(`${engine}: BENCH_KEEP set, data kept: ${pg ? pg.url : path.join(dir, 'data')}`);
    } else {
      if (pg) await pg.drop();
      await removeDir();
    }
    if (pg) paid(pg.drop);
    paid(removeDir);
  }
}

function markdown(runs: EngineRun[], meta: Record<string, string>, withPlans: boolean): string {
  const out: string[] = [];
  out.push(`# Benchmark run ${meta.date}`, '');
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  for (const run of runs) {
    const c = run.seed.counts;
    out.push(
      '',
      `## ${run.engine}: ${run.engineVersion}`,
      '',
      `Seeded ${c.users} users, ${c.links} links, ${c.tags} tags, ${c.linkTags} link_tags, ${c.credentials} credentials in ${run.seed.seconds.toFixed(0)} s.`,
      '',
      `### Latency (sequential fetch, in process; ${SAMPLES} samples after ${WARMUP} warm-up, create ${CREATE_SAMPLES})`,
      '',
      '| Request | p50 ms | p99 ms | mean ms | max ms | SQL/req | DB time by statement (p50 ms) |',
      '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    );
    for (const r of run.latency) {
      const statements = r.statements
        .filter((s) => s.perRequest >= 0.5)
        .map((s) => `${s.label}${s.perRequest >= 1.5 ? ` ×${Math.round(s.perRequest)}` : ''} ${ms(s.p50)}`)
        .join(' · ');
      out.push(
        `| ${r.name} | ${ms(r.latency.p50)} | ${ms(r.latency.p99)} | ${ms(r.latency.mean)} | ${ms(r.latency.max)} | ${r.queriesPerRequest} | ${statements} |`,
      );
    }
    out.push(
      '',
      `### Throughput (autocannon in the bench process, server in its own process, ${CONNECTIONS} connections, ${DURATION} s)`,
      '',
      '| Route | req/s | p50 ms | p99 ms | requests | non-2xx | errors |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const t of run.throughput) {
      out.push(
        `| ${t.name} | ${t.reqPerSec.toFixed(0)} | ${t.p50} | ${t.p99} | ${t.requests} | ${t.non2xx} | ${t.errors} |`,
      );
    }
    if (withPlans) out.push('', '### Query plans', '');
    for (const p of withPlans ? run.plans : []) {
      out.push(
        `#### ${p.scenario}: ${p.label} (p50 ${ms(p.ms)} ms)`,
        '',
        '```sql',
        p.sql,
        `-- ${p.parameters}`,
        '```',
        '',
        '```',
        p.plan,
        '```',
        '',
      );
    }
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  const started = performance.now();
  const runs: EngineRun[] = [];
  try {
    for (const engine of ENGINES) runs.push(await runEngine(engine));
  } finally {
    await cleanupAll(log);
  }
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM`,
    node: process.version,
    engines: runs.map((r) => r.engineVersion).join('; '),
    command: `BENCH_ENGINES=${ENGINES.join(',')} BENCH_SCALE=${SCALE} BENCH_SEED=${SEED} npm run bench`,
    size: `${SMALL_USERS} users × ${LINKS_PER_SMALL_USER} links + 1 user × ${BIG_LINKS} links per engine`,
    duration: `${((performance.now() - started) / 1000).toFixed(0)} s`,
  };
  writeFileSync(path.join(TMP, 'last-run.md'), markdown(runs, meta, true));
  writeFileSync(path.join(TMP, 'last-run.json'), JSON.stringify({ meta, runs }, null, 2));
  console.log(markdown(runs, meta, false));
  log(`done in ${meta.duration}; full report with query plans: bench/.tmp/last-run.md`);
}

main().catch(async (error: unknown) => {
  console.error(error);
  await cleanupAll(log);
  process.exit(1);
});
