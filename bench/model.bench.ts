/**
 * The offline embedding models' cost, each in its own worker thread as the server runs them: RSS of
 * the process once the model is loaded and has embedded the corpus once and BENCH_ROUNDS times
 * (default 3: what a worker keeps after sustained work), page texts per second over the 88 corpus pages
 * (title + description + lead text, batches of 8), query latency (p50/p99 over the paraphrase
 * queries, one at a time), vector bytes per 100k links. Each model runs in a fresh child process so
 * RSS is its own.
 *
 *   node --conditions=@linkwise/source --import tsx model.bench.ts          (from bench/)
 *   MODEL_MEMORY_TRIM=false …                                               (freed memory kept by malloc)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pageText } from '../apps/server/src/modules/ml/embedder.js';
import { corpusFacts } from './lib/corpus.js';
import { createEmbedder } from './lib/embedder.js';
import { percentile } from './lib/stats.js';
import { paraphraseQueries } from './experiments/corpus-facts.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODELS = (
  process.env.BENCH_MODELS ?? 'use-lite,all-minilm-l6-v2@1,minilm-use-multilingual@1,minilm-bge-use-multilingual@1'
).split(',');

async function measure(spec: string): Promise<string> {
  const [name, threads] = spec.split('@');
  if (threads) process.env.MODEL_THREADS = threads;
  // The corpus is read (and its HTML parsed) before the baseline: only the model counts after it.
  const texts = corpusFacts().map(({ facts }) => pageText(facts.title, facts.description, facts.text));
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const embedder = await createEmbedder(name);
  await embedder.embed(['warm up'], 'query');
  let seconds = 0;
  let afterOne = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await embedder.embed(texts);
    seconds += (performance.now() - started) / 1000;
    // RSS once the model thread is idle again, not mid-batch.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    afterOne ||= process.memoryUsage().rss;
  }
  const times: number[] = [];
  for (const q of paraphraseQueries()) {
    const t0 = performance.now();
    await embedder.embed([q.query], 'query');
    times.push(performance.now() - t0);
  }
  const rss = process.memoryUsage().rss;
  times.sort((a, b) => a - b);
  await embedder.close();
  const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
  return (
    `| ${spec} | ${embedder.dimensions} | ${((texts.length * ROUNDS) / seconds).toFixed(1)} | ` +
    `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)} | ${mb(afterOne)} → ${mb(rss)} ` +
    `(+${mb(rss - rss0)}) | ${((embedder.dimensions * 4 * 100_000) / 1e6).toFixed(0)} MB |`
  );
}

if (process.argv[2]) {
  console.log(await measure(process.argv[2]));
} else {
  console.log(
    `| model (@threads) | dims | pages/s | query p50 / p99 ms | process RSS MB: 1 → ${ROUNDS} rounds (model) | vectors per 100k links |`,
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const spec of MODELS) {
    const line = execFileSync(
      process.execPath,
      ['--expose-gc', '--conditions=@linkwise/source', '--import', 'tsx', fileURLToPath(import.meta.url), spec],
      { encoding: 'utf8' },
    );
    console.log(line.trim());
  }
}
