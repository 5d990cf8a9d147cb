/**
 * The in-memory part of search by meaning at 100k links for each vector size the offline models
 * store (384 MiniLM, 512 USE-lite, 896 MiniLM + USE multilingual, 1,280 with bge too): exact top-100 over one user's
 * matrix (WebAssembly SIMD), the sizes interleaved in one process so that their ratios hold on a
 * busy machine. The last row adds the default model's ranking of the 100 it keeps (decision 0022).
 * The first row is search before issue 17: USE-lite's 512 dimensions as float32 rows, scored by the
 * float32 kernel of that time (dot-f32.wat), then the same top-100 pass. Seeded; no database.
 *
 *   node --conditions=@linkwise/source --import tsx experiments/scan-dims.ts      (from bench/)
 */
import { readFileSync } from 'node:fs';
import wabt from 'wabt';
import { normalize } from '../../apps/server/src/modules/ml/embedder.js';
import { buildVectors, sizeOf, topK, topOf } from '../../apps/server/src/modules/search/vector-index.js';
import { MINILM_BGE_USE_MULTILINGUAL } from '../../apps/server/src/modules/ml/local-models.js';
import { rankingParts, rankingScore } from '../../apps/server/src/modules/search/ranking.js';
import { percentile } from '../lib/stats.js';

const LINKS = Number(process.env.BENCH_LINKS ?? 100_000);
const SIZES = [384, 512, 896, 1280];
let seed = 42;
const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
const vector = (dims: number) => normalize(Float32Array.from({ length: dims }, next));

const matrices = SIZES.map((dims) =>
  buildVectors(
    0,
    `m${dims}`,
    dims,
    Array.from({ length: LINKS }, (_, i) => {
      const v = vector(dims);
      return { linkId: `l${i}`, createdAt: i, bytes: new Uint8Array(v.buffer) };
    }),
  ),
);
const ranking = MINILM_BGE_USE_MULTILINGUAL.calibration.ranking!;

/** The part of the WebAssembly API used here (Node's type definitions for v20 do not declare it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (size: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

/** The float32 matrix of 512-dimension rows and its kernel, as search held them before issue 17. */
const before = await (async () => {
  const tools = await wabt();
  const source = tools.parseWat('dot-f32.wat', readFileSync(new URL('dot-f32.wat', import.meta.url), 'utf8'), {
    simd: true,
  });
  const module = new wasm.Module(source.toBinary({}).buffer);
  const dims = 512;
  const bytes = (dims + LINKS * dims + LINKS) * 4;
  const memory = new wasm.Memory({ initial: Math.ceil(bytes / 65536) });
  const kernel = new wasm.Instance(module, { env: { memory } }).exports.scores as (...args: number[]) => void;
  const rows = new Float32Array(memory.buffer, dims * 4, LINKS * dims);
  for (let i = 0; i < LINKS; i++) rows.set(vector(dims), i * dims);
  const scores = new Float32Array(memory.buffer, (dims + LINKS * dims) * 4, LINKS);
  return (query: Float32Array) => {
    new Float32Array(memory.buffer, 0, dims).set(query);
    kernel(dims * 4, 0, LINKS, dims, (dims + LINKS * dims) * 4);
    // The ids of the 512-dimension int8 matrix: same count, all live.
    return topOf(matrices[1]!, scores, 100, -1);
  };
})();

const times: number[][] = [...SIZES, 0].map(() => []);
const beforeTimes: number[] = [];
for (let round = 0; round < 60; round++) {
  {
    const q = vector(512);
    const t0 = performance.now();
    before(q);
    if (round >= 10) beforeTimes.push(performance.now() - t0);
  }
  SIZES.forEach((dims, i) => {
    const q = vector(dims);
    const t0 = performance.now();
    topK(matrices[i]!, q, 100, -1);
    if (round >= 10) times[i]!.push(performance.now() - t0);
  });
  const m = matrices[SIZES.length - 1]!;
  const q = vector(m.dims);
  const t0 = performance.now();
  const parts = rankingParts(q, ranking);
  for (const hit of topK(m, q, 100, -1)) rankingScore(parts, m.row(hit.index), ranking);
  if (round >= 10) times[SIZES.length]!.push(performance.now() - t0);
}
console.log('| dims | matrix MiB | top-100 p50 ms | p99 ms | p50 vs 512 |');
console.log('| --- | --- | --- | --- | --- |');
const base = percentile(
  [...times[1]!].sort((a, b) => a - b),
  50,
);
{
  const sorted = [...beforeTimes].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  console.log(
    `| 512 float32 (before issue 17) | ${((LINKS * 512 * 4) / 1048576).toFixed(1)} | ${p50.toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${(p50 / base).toFixed(2)}× |`,
  );
}
[...SIZES, 1280].forEach((dims, i) => {
  const sorted = [...times[i]!].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  console.log(
    `| ${dims}${i === SIZES.length ? ' + ranking' : ''} | ${(sizeOf(matrices[Math.min(i, SIZES.length - 1)]!) / 1048576).toFixed(1)} | ${p50.toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${(p50 / base).toFixed(2)}× |`,
  );
});
