/**
 * Link-intelligence benchmark over the 88-page corpus served on loopback.
 *
 *   npm run bench:analysis -w @linkwise/bench                      # SQLite
 *   BENCH_ENGINES=sqlite,postgres npm run bench:analysis -w @linkwise/bench
 *
 * The server runs in this process (so the event-loop delay and RSS are the server's own, the
 * embedding worker thread included). Per engine: (1) POST /api/links/analyze for every page, one
 * at a time: latency p50/p95, title/description agreement, category accuracy on the hand labels in
 * bench/category-labels.json; (2) 88 links created at once and analysed by the background worker:
 * pages/minute, event-loop delay p99 during the run, peak RSS. Results: bench/.tmp/analysis-last-run.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createApiClient, type AnalysisResult, type ApiClient } from '@linkwise/contract';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, type Engine } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrator.js';
import { loadCorpus, serveCorpus } from '../apps/server/test/corpus.js';
import { createBenchDatabase } from './lib/postgres.js';
import { percentile } from './lib/stats.js';
import { BENCH_MODELS_DIR } from './lib/embedder.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const { labels, heldout, heldout2 } = JSON.parse(
  readFileSync(path.join(BENCH_DIR, 'category-labels.json'), 'utf8'),
) as {
  labels: Record<string, string>;
  heldout: Record<string, string>;
  heldout2: Record<string, string>;
};
const engines = (process.env.BENCH_ENGINES ?? 'sqlite').split(',').map((e) => e.trim()) as Engine[];
const corpus = loadCorpus();
if (!corpus) throw new Error('the page corpus is required');
const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').replace(/\s+/g, ' ').trim() === (b ?? '').replace(/\s+/g, ' ').trim();
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function runEngine(engine: Engine): Promise<string[]> {
  const pages = await serveCorpus(corpus!);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-bench-analysis-'));
  const pg = engine === 'postgres' ? await createBenchDatabase() : undefined;
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    // The provisioned offline model (scripts/provision-model.py); never the public hub.
    MODELS_DIR: BENCH_MODELS_DIR,
    MODEL_DOWNLOAD: 'false',
    LOCAL_MODEL: process.env.BENCH_MODEL ?? 'all-minilm-l6-v2',
    LOG_LEVEL: 'silent',
    BILLING: 'off',
    FETCH_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    ...(pg && { DATABASE_URL: pg.url }),
  });
  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir, poolSize: 8 });
  await migrateToLatest(database);
  const app = await buildApp({ config, database });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const rssBefore = process.memoryUsage().rss;
  let users = 0;
  const signUp = async (): Promise<ApiClient> => {
    users += 1;
    const { token } = await createApiClient({ baseUrl: address }).register({
      body: { email: `bench${users}@example.com`, username: `bench${users}`, password: 'correct horse' },
    });
    return createApiClient({ baseUrl: address, getToken: () => token });
  };
  const lines: string[] = [`### ${engine}`, ''];
  try {
    // Warm-up: the first call starts the worker and loads the model.
    let api = await signUp();
    const t0 = performance.now();
    await api.analyzeLink({ body: { url: pages.url(corpus![0]!.name) } });
    const firstCall = performance.now() - t0;
    const rssModel = process.memoryUsage().rss;

    // (1) The add dialog, page by page (a new user every 25 calls: the route allows 30 a minute).
    const latencies: number[] = [];
    const answers = new Map<string, AnalysisResult>();
    const started = performance.now();
    for (const [i, page] of corpus!.entries()) {
      if (i > 0 && i % 25 === 0) api = await signUp();
      const t = performance.now();
      answers.set(page.name, (await api.analyzeLink({ body: { url: pages.url(page.name) } })).data);
      latencies.push(performance.now() - t);
    }
    const sequentialMinutes = (performance.now() - started) / 60_000;
    latencies.sort((a, b) => a - b);
    const labelled = Object.entries(labels);
    const wrong = labelled.filter(([name, label]) => answers.get(name)?.category !== label);
    const held = Object.entries(heldout);
    const heldWrong = held.filter(([name, label]) => answers.get(name)?.category !== label);
    const held2 = Object.entries(heldout2);
    const held2Wrong = held2.filter(([name, label]) => answers.get(name)?.category !== label);
    const loadAfterDialog = loadavg()[0]!;

    // (2) Background enrichment of 88 new links while the event loop is watched.
    const owner = await signUp();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
    const bgStart = performance.now();
    loop.enable();
    const elu = performance.eventLoopUtilization();
    const ids: string[] = [];
    for (const page of corpus!) ids.push((await owner.createLink({ body: { url: pages.url(page.name) } })).id);
    for (;;) {
      const { data } = await owner.listLinks({ query: { limit: 100 } });
      if (data.every((l) => l.analysisStatus !== 'pending')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    loop.disable();
    const busy = performance.eventLoopUtilization(elu).utilization;
    const load = loadavg()[0]!;
    clearInterval(sampler);
    const bgMinutes = (performance.now() - bgStart) / 60_000;
    const { data: links } = await owner.listLinks({ query: { limit: 100 } });
    const byUrl = new Map(links.map((l) => [l.url, l]));
    const stored = corpus!.map((p) => ({ page: p, link: byUrl.get(pages.url(p.name))! }));
    const titleMisses = stored.filter(({ page, link }) => !same(link.title, page.expected.title));
    const descriptionMisses = stored.filter(({ page, link }) => !same(link.description, page.expected.description));
    const failed = stored.filter(({ link }) => link.analysisStatus === 'failed');

    lines.push(
      `| measure | value |`,
      `|---|---|`,
      `| first analyze call (starts the worker, loads USE-lite) | ${firstCall.toFixed(0)} ms |`,
      `| POST /api/links/analyze, 88 pages one at a time: p50 / p95 / max | ${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 95).toFixed(0)} / ${latencies.at(-1)!.toFixed(0)} ms |`,
      `| sequential analyze throughput | ${(corpus!.length / sequentialMinutes).toFixed(0)} pages/min |`,
      `| background enrichment of 88 new links (JOB_CONCURRENCY=${config.JOB_CONCURRENCY}) | ${(corpus!.length / bgMinutes).toFixed(0)} pages/min (${(bgMinutes * 60).toFixed(1)} s) |`,
      `| event-loop delay during the background run: p50 / p99 / max | ${(loop.percentile(50) / 1e6).toFixed(1)} / ${(loop.percentile(99) / 1e6).toFixed(1)} / ${(loop.max / 1e6).toFixed(1)} ms |`,
      `| main-thread event-loop utilisation during the background run (busy share) | ${(busy * 100).toFixed(1)} % |`,
      `| machine load average (1 min) after the add-dialog run / after the background run, 2 cores | ${loadAfterDialog.toFixed(1)} / ${load.toFixed(1)} |`,
      `| RSS: server started / model loaded / peak during background run | ${mb(rssBefore)} / ${mb(rssModel)} / ${mb(peakRss)} |`,
      `| stored titles agreeing with the reference | ${stored.length - titleMisses.length}/${stored.length} (${((1 - titleMisses.length / stored.length) * 100).toFixed(1)} %) |`,
      `| stored descriptions agreeing with the reference | ${stored.length - descriptionMisses.length}/${stored.length} (${((1 - descriptionMisses.length / stored.length) * 100).toFixed(1)} %) |`,
      `| links whose analysis failed | ${failed.length} |`,
      `| category accuracy on ${labelled.length} hand-labelled pages (offline; anchors were revised on these) | ${labelled.length - wrong.length}/${labelled.length} (${((1 - wrong.length / labelled.length) * 100).toFixed(1)} %) |`,
      `| category accuracy on ${held.length} held-out labelled pages (offline) | ${held.length - heldWrong.length}/${held.length} (${((1 - heldWrong.length / held.length) * 100).toFixed(1)} %) |`,
      `| category accuracy on the ${held2.length} pages of the second held-out set (offline) | ${held2.length - held2Wrong.length}/${held2.length} (${((1 - held2Wrong.length / held2.length) * 100).toFixed(1)} %) |`,
      '',
      'Title disagreements: ' +
        (titleMisses.map(({ page, link }) => `${page.name} (“${link.title}” vs “${page.expected.title}”)`).join('; ') ||
          'none'),
      '',
      'Description disagreements: ' +
        (descriptionMisses
          .map(
            ({ page, link }) =>
              `${page.name} (“${link.description.slice(0, 120)}” vs “${(page.expected.description ?? '').slice(0, 120)}”)`,
          )
          .join('; ') || 'none'),
      '',
      'Category misses (label → answer): ' +
        wrong.map(([name, label]) => `${name} ${label} → ${answers.get(name)?.category}`).join('; '),
      '',
      'Held-out category misses (label → answer): ' +
        heldWrong.map(([name, label]) => `${name} ${label} → ${answers.get(name)?.category}`).join('; '),
      '',
    );
  } finally {
    await app.close();
    await database.close();
    await pg?.drop();
    await pages.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return lines;
}

const header = [
  `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; command: BENCH_ENGINES=${engines.join(',')} npm run bench:analysis -w @linkwise/bench`,
  '',
];
const out = [...header];
for (const engine of engines) out.push(...(await runEngine(engine)));
mkdirSync(path.join(BENCH_DIR, '.tmp'), { recursive: true });
writeFileSync(path.join(BENCH_DIR, '.tmp/analysis-last-run.md'), out.join('\n'));
console.log(out.join('\n'));
