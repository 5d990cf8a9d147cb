/**
 * Where should a model's similarity floor be? For every paraphrase query, the cosine of its target
 * page (what must stay above the floor); for queries that match nothing in the corpus, the best
 * cosine of any page (what must fall below it). Prints both distributions and, for each candidate
 * floor, how many targets survive and how many empty queries answer nothing (decision 0011).
 *
 *   BENCH_MODEL=all-minilm-l6-v2 node --conditions=@linkwise/source --import tsx experiments/similarity-floor.ts
 */
import { cosine } from '../../apps/server/src/modules/ml/embedder.js';
import { corpusFacts, NOTHING_QUERIES } from '../lib/corpus.js';
import { paraphraseQueries, productionVectors, withEmbedder } from './corpus-facts.js';

const NOTHING = [...NOTHING_QUERIES, 'Zenefits', 'cooking'];
const queries = paraphraseQueries();
const pages = corpusFacts();
const vectors = await productionVectors(pages, queries);
const empties = await withEmbedder((embed) => embed(NOTHING, 'query'));
const names = pages.map((p) => p.name);
const targets = queries.map((q, i) => ({
  q,
  cos: Math.max(...q.relevant.map((r) => cosine(vectors.queries[i]!, vectors.pages[names.indexOf(r)]!))),
}));
const best = NOTHING.map((q, i) => {
  const scored = vectors.pages.map((p, k) => ({ page: names[k]!, cos: cosine(empties[i]!, p) }));
  scored.sort((a, b) => b.cos - a.cos);
  return { q, top: scored.slice(0, 3) };
});
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
const t = targets.map((x) => x.cos);
console.log(
  `targets: min ${Math.min(...t).toFixed(3)} p10 ${pct(t, 0.1).toFixed(3)} p50 ${pct(t, 0.5).toFixed(3)} p90 ${pct(t, 0.9).toFixed(3)}`,
);
for (const b of best) console.log(`nothing "${b.q}": ${b.top.map((x) => `${x.page} ${x.cos.toFixed(3)}`).join(', ')}`);
for (const floor of (process.env.FLOORS ?? '0.1,0.15,0.2,0.25,0.3,0.35,0.4').split(',').map(Number)) {
  const kept = targets.filter((x) => x.cos >= floor).length;
  const silent = best.slice(0, 10).filter((b) => b.top[0]!.cos < floor).length;
  console.log(`floor ${floor}: targets kept ${kept}/${targets.length}, empty queries silent ${silent}/10`);
}
for (const x of targets.filter((y) => y.cos < 0.3))
  console.log(`low target ${x.cos.toFixed(3)} "${x.q.query}" (${x.q.relevant[0]})`);

// Query-normalised: how far a page's cosine stands above the query's cosines with every page (z).
const z = (qv: Float32Array, page: Float32Array) => {
  const all = vectors.pages.map((p) => cosine(qv, p));
  const mu = all.reduce((a, b) => a + b, 0) / all.length;
  const sd = Math.sqrt(all.reduce((a, b) => a + (b - mu) ** 2, 0) / all.length);
  return (cosine(qv, page) - mu) / sd;
};
const tz = queries.map((q, i) =>
  Math.max(...q.relevant.map((r) => z(vectors.queries[i]!, vectors.pages[names.indexOf(r)]!))),
);
const ez = NOTHING.map((_, i) => Math.max(...vectors.pages.map((p) => z(empties[i]!, p))));
console.log(
  `z targets: p10 ${pct(tz, 0.1).toFixed(2)} p50 ${pct(tz, 0.5).toFixed(2)}; nothing: ${ez.map((x) => x.toFixed(2)).join(' ')}`,
);
for (const floor of [2, 2.5, 3, 3.5, 4]) {
  console.log(
    `z floor ${floor}: targets kept ${tz.filter((x) => x >= floor).length}/${tz.length}, empty silent ${ez.slice(0, 10).filter((x) => x < floor).length}/10`,
  );
}
