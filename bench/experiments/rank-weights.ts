/**
 * Ranking by one mix of the joined model's parts while the default mix still decides what matches
 * (decision 0022): every page and query embedded once by the production model (BENCH_MODEL, the
 * default MiniLM + bge + USE multilingual), each vector cut into its models' unit parts, and for
 * each ranking mix the paraphrase queries' success@5 / MRR@10 with vectors alone, among the pages
 * at or above the default mix's floor. "bge centred" takes bge's mean vector over background texts
 * (Debian package descriptions: any English text outside the corpus does) out of its part.
 *
 *   MODELS_DIR=… node --conditions=@linkwise/source --import tsx experiments/rank-weights.ts
 */
import { readFileSync } from 'node:fs';
import { corpusFacts, NOTHING_QUERIES } from '../lib/corpus.js';
import { paraphraseQueries, productionVectors, withEmbedder } from './corpus-facts.js';
import { MINILM_BGE_USE_MULTILINGUAL as SPEC } from '../../apps/server/src/modules/ml/local-models.js';

const NOTHING = NOTHING_QUERIES;
const FLOOR = SPEC.calibration.floor;
const sizes = [
  SPEC.dimensions - SPEC.companions!.reduce((n, c) => n + c.dimensions, 0),
  ...SPEC.companions!.map((c) => c.dimensions),
];
const shares = [1 - SPEC.companions!.reduce((n, c) => n + c.weight, 0), ...SPEC.companions!.map((c) => c.weight)];

const unit = (v: Float32Array) => {
  const n = Math.hypot(...v);
  return n > 0 ? v.map((x) => x / n) : v;
};
/** A joined vector's parts, each unit length again. */
const parts = (v: Float32Array) => {
  let at = 0;
  return sizes.map((size) => unit(v.slice(at, (at += size))));
};
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

const background = readFileSync('/var/lib/dpkg/status', 'utf8')
  .split(/\n\n/)
  .map((block) => /^Description: (.*(?:\n .*)*)/m.exec(block)?.[1]?.replace(/\n \.?/g, ' ') ?? '')
  .filter((d) => d.length > 80)
  .slice(0, 600);

const queries = paraphraseQueries();
const pages = corpusFacts();
const names = pages.map((p) => p.name);
const vectors = await productionVectors(pages, queries);
const extra = await withEmbedder(async (embed) => ({
  nothing: await embed(NOTHING, 'query'),
  background: await embed(background),
}));

const P = vectors.pages.map(parts);
const Q = vectors.queries.map(parts);
const N = extra.nothing.map(parts);
const bgMean = new Float32Array(sizes[1]!);
for (const b of extra.background.map(parts)) b[1]!.forEach((x, d) => (bgMean[d] = bgMean[d]! + x / background.length));
const centred = (v: Float32Array) => unit(v.map((x, d) => x - bgMean[d]!));
const Pc = P.map((p) => centred(p[1]!));
const Qc = Q.map((q) => centred(q[1]!));

/** Per-part cosines of a query with every page: [minilm, bge, bge centred, use]. */
const cosines = (q: Float32Array[], qc: Float32Array) =>
  P.map((p, k) => [dot(q[0]!, p[0]!), dot(q[1]!, p[1]!), dot(qc, Pc[k]!), dot(q[2]!, p[2]!)]);
const gate = (c: number[]) => shares[0]! * c[0]! + shares[1]! * c[1]! + shares[2]! * c[3]!;

function evaluate(weights: [number, number, number, number], gated: boolean, subset: (i: number) => boolean) {
  let hits = 0;
  let rr = 0;
  let n = 0;
  Q.forEach((q, i) => {
    if (!subset(i)) return;
    n++;
    const scored = cosines(q, Qc[i]!)
      .map((c, k) => ({ k, g: gate(c), s: weights.reduce((s, w, j) => s + w * c[j]!, 0) }))
      .filter((x) => !gated || x.g >= FLOOR)
      .sort((a, b) => b.s - a.s);
    const rank = scored.findIndex((x) => queries[i]!.relevant.includes(names[x.k]!));
    if (rank >= 0 && rank < 5) hits++;
    if (rank >= 0 && rank < 10) rr += 1 / (rank + 1);
  });
  return `${(hits / n).toFixed(2)} / ${(rr / n).toFixed(3)}`;
}

const silent = N.filter(
  (q) =>
    Math.max(
      ...P.map((p) => shares[0]! * dot(q[0]!, p[0]!) + shares[1]! * dot(q[1]!, p[1]!) + shares[2]! * dot(q[2]!, p[2]!)),
    ) < FLOOR,
).length;
console.log(`default mix, floor ${FLOOR}: unrelated queries silent ${silent}/${N.length}`);
const all = () => true;
const english = (i: number) => !(queries[i] as { lang?: string }).lang;
const other = (i: number) => !english(i);
const held = (i: number) => queries[i]!.set === 'heldout';
const mixes: [string, [number, number, number, number]][] = [
  ['default 0.25/0.15/0.6', [0.25, 0.15, 0, 0.6]],
  ['bge 0.5 + use 0.5', [0, 0.5, 0, 0.5]],
  ['bge 0.55 + use 0.45', [0, 0.55, 0, 0.45]],
  ['minilm 0.1 + bge 0.4 + use 0.5', [0.1, 0.4, 0, 0.5]],
  ['minilm 0.15 + bge 0.3 + use 0.55', [0.15, 0.3, 0, 0.55]],
  ['bge centred 0.4 + use 0.6', [0, 0, 0.4, 0.6]],
  ['bge centred 0.5 + use 0.5', [0, 0, 0.5, 0.5]],
  ['minilm 0.1 + bge centred 0.35 + use 0.55', [0.1, 0, 0.35, 0.55]],
  ['minilm 0.2 + bge centred 0.2 + use 0.6', [0.2, 0, 0.2, 0.6]],
];
if (process.env.GRID) {
  for (const centre of [false, true])
    for (const m of [0.05, 0.1, 0.15, 0.2, 0.25])
      for (const b of [0.15, 0.2, 0.25, 0.3, 0.35, 0.4]) {
        const u = Math.round((1 - m - b) * 100) / 100;
        mixes.push([
          `minilm ${m} + bge${centre ? ' centred' : ''} ${b} + use ${u}`,
          centre ? [m, 0, b, u] : [m, b, 0, u],
        ]);
      }
}
console.log('rank mix | gated: all / English / non-English / held-out | ungated: all');
for (const [label, w] of mixes) {
  console.log(
    `${label} | ${[all, english, other, held].map((s) => evaluate(w, true, s)).join(' | ')} | ${evaluate(w, false, all)}`,
  );
}

// The chosen mix (decision 0022): its scale fitted onto the default mix's over every query–page pair
// the default mix lets through (least squares), so its floor and `certain` read like the default's.
const CHOSEN: [number, number, number, number] = [0.2, 0, 0.2, 0.6];
const pairs: { g: number; s: number }[] = [];
for (const [i, q] of [...Q, ...N].entries()) {
  const qc = i < Q.length ? Qc[i]! : centred(q[1]!);
  for (const c of cosines(q, qc)) {
    const g = gate(c);
    if (g >= FLOOR) pairs.push({ g, s: CHOSEN.reduce((s, w, j) => s + w * c[j]!, 0) });
  }
}
const mg = pairs.reduce((a, p) => a + p.g, 0) / pairs.length;
const ms = pairs.reduce((a, p) => a + p.s, 0) / pairs.length;
const slope = pairs.reduce((a, p) => a + (p.s - ms) * (p.g - mg), 0) / pairs.reduce((a, p) => a + (p.s - ms) ** 2, 0);
const at = (g: number) => (g - (mg - slope * ms)) / slope;
console.log(
  `chosen mix over ${pairs.length} pairs: default ≈ ${slope.toFixed(3)} × rank + ${(mg - slope * ms).toFixed(3)}; ` +
    `rank floor ${at(FLOOR).toFixed(3)}, certain ${at(SPEC.calibration.certain).toFixed(3)}`,
);
if (process.env.CENTRE_OUT) {
  const { writeFileSync } = await import('node:fs');
  const values = [...bgMean].map((x) => Number(x.toFixed(6)));
  writeFileSync(
    process.env.CENTRE_OUT,
    `/**\n * bge-small-en-v1.5's mean unit vector over ${background.length} English texts outside the corpus (Debian\n` +
      ` * package descriptions), taken out of its part of the vectors before ranking (decision 0022).\n` +
      ` * Written by bench/experiments/rank-weights.ts (CENTRE_OUT); do not edit by hand.\n */\n` +
      `export const BGE_SMALL_EN_V15_CENTRE: readonly number[] = ${JSON.stringify(values)};\n`,
  );
}
if (process.env.SHOW) {
  // Queries the chosen mix puts first whose target the default mix had behind another page.
  const top = (i: number, w: number[]) =>
    cosines(Q[i]!, Qc[i]!)
      .map((c, k) => ({ k, g: gate(c), s: w.reduce((s, x, j) => s + x * c[j]!, 0) }))
      .filter((x) => x.g >= FLOOR)
      .sort((a, b) => b.s - a.s)
      .slice(0, 3)
      .map((x) => `${names[x.k]} ${x.g.toFixed(3)}`);
  Q.forEach((_, i) => {
    const before = top(i, [0.25, 0.15, 0, 0.6]);
    const after = top(i, CHOSEN);
    if (before[0] !== after[0])
      console.log(
        `"${queries[i]!.query}" (${queries[i]!.relevant.join(', ')}): ${before.join(', ')} → ${after.join(', ')}`,
      );
  });
}
