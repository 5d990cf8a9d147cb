/**
 * What the category model's history costs a 100k-link user once their vector matrix is cached (the
 * search's per-user matrix, patched in place after each change: bench/RESULTS.md "Vector cache"):
 * the 10 nearest links by exact cosine over every row, and the same after one appended row (each
 * analysed link of an import). Random unit vectors, seed 42; 384 dimensions (all-MiniLM-L6-v2).
 *
 *   node --conditions=@linkwise/source --import tsx experiments/category-history-cost.ts     (from bench/)
 */
import { buildVectors, topK, type StoredVector } from '../../apps/server/src/modules/search/vector-index.js';

const ROWS = Number(process.env.ROWS ?? 100_000);
const DIMS = 384;
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
const unit = () => {
  const v = new Float32Array(DIMS).map(random);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const bytes = (v: Float32Array) => new Uint8Array(v.buffer.slice(0));
const rows: StoredVector[] = Array.from({ length: ROWS }, (_, i) => ({
  linkId: `l${i}`,
  createdAt: i,
  bytes: bytes(unit()),
}));
const matrix = buildVectors(1, 'm', DIMS, rows);
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
const time = (runs: number, work: (i: number) => void) => {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    work(i);
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return `p50 ${percentile(out, 0.5).toFixed(2)} ms, p99 ${percentile(out, 0.99).toFixed(2)} ms`;
};
const queries = Array.from({ length: 200 }, unit);
time(20, (i) => topK(matrix, queries[i]!, 10, -1)); // warm-up
console.log(`${ROWS} rows: 10 nearest, ${time(200, (i) => topK(matrix, queries[i]!, 10, -1))}`);
console.log(
  `one row appended, then the 10 nearest: ${time(200, (i) => {
    matrix.patch([{ linkId: `new${i}`, createdAt: ROWS + i, bytes: bytes(queries[i]!) }], 2 + i);
    topK(matrix, queries[i]!, 10, -1, (r) => matrix.ids[r] !== `new${i}`);
  })}`,
);
