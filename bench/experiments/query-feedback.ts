/**
 * Does pseudo-relevance feedback on the query vector (Rocchio) help USE-lite rank pages for
 * paraphrase queries? For every query of search-queries.json: rank the 88 corpus pages by cosine
 * with the query vector q (the production page vector, pageText(title, description, text)); take
 * the top k pages' vectors; q' = normalize(q + α · mean(top-k page vectors)), the mean being the
 * plain arithmetic mean of the unit page vectors; rank again by cosine with q'. Prints success@5 and
 * MRR@10 for the first query set and the held-out one, and how many queries each variant fixes or
 * breaks against q alone (success@5), then the baseline's rank of the target for every query it
 * misses. The five variants (q alone; k = 3, α = 0.5; k = 3, α = 1.0; k = 5, α = 0.5; k = 1,
 * α = 0.5) were fixed before any was run. Vectors only: no database, no text search.
 *
 * The feedback pool here is the 88 corpus pages; in production it would be one user's library
 * (its size and topics change what the top k pages are, so these figures do not carry over as is).
 *
 *   node --conditions=@linkwise/source --import tsx experiments/query-feedback.ts     (from bench/)
 */
import { cosine, normalize } from '../../apps/server/src/modules/ml/embedder.js';
import { corpusFacts } from '../lib/corpus.js';
import { paraphraseQueries, productionVectors } from './corpus-facts.js';

const queries = paraphraseQueries();
const pages = corpusFacts();

// USE-lite, as production embeds a page and a query.
const { pages: pageVectors, queries: queryVectors } = await productionVectors(pages, queries);

/** Page indexes, best first, by cosine with the vector. */
const order = (v: Float32Array) =>
  pageVectors
    .map((p, i) => ({ s: cosine(v, p), i }))
    .sort((a, b) => b.s - a.s)
    .map(({ i }) => i);

/** q' = normalize(q + α · mean of the top-k pages' vectors under q); k = 0 is q alone. */
function feedback(q: Float32Array, k: number, alpha: number): Float32Array {
  const out = Float32Array.from(q);
  if (k === 0) return out;
  for (const p of order(q).slice(0, k)) {
    const v = pageVectors[p]!;
    for (let d = 0; d < out.length; d++) out[d]! += (alpha / k) * v[d]!;
  }
  return normalize(out);
}

const variants: [string, number, number][] = [
  ['1 q alone (production)', 0, 0],
  ['2 k = 3, α = 0.5', 3, 0.5],
  ['3 k = 3, α = 1.0', 3, 1.0],
  ['4 k = 5, α = 0.5', 5, 0.5],
  ['5 k = 1, α = 0.5', 1, 0.5],
];

/** 1-based rank of the first relevant page per query (Infinity when none), under the variant's query vectors. */
const firstRanks = (k: number, alpha: number) =>
  queries.map((q, i) => {
    const ranked = order(feedback(queryVectors[i]!, k, alpha));
    const at = ranked.findIndex((p) => q.relevant.includes(pages[p]!.name));
    return at < 0 ? Infinity : at + 1;
  });

const sets: [string, number[]][] = [
  ['first', queries.flatMap((q, i) => (q.set ? [] : [i]))],
  ['held-out', queries.flatMap((q, i) => (q.set === 'heldout' ? [i] : []))],
];
const baseline = firstRanks(0, 0);
for (const [name, k, alpha] of variants) {
  const rank = firstRanks(k, alpha);
  const line = sets.map(([, at]) => {
    const hits = at.filter((i) => rank[i]! <= 5).length;
    const rr = at.reduce((s, i) => s + (rank[i]! <= 10 ? 1 / rank[i]! : 0), 0);
    const fixed = at.filter((i) => rank[i]! <= 5 && baseline[i]! > 5);
    const broken = at.filter((i) => rank[i]! > 5 && baseline[i]! <= 5);
    return (
      `s@5 ${(hits / at.length).toFixed(2)} MRR ${(rr / at.length).toFixed(2)} ` +
      `+${fixed.length} -${broken.length} (${at.length})`
    );
  });
  console.log(`${name.padEnd(24)} first: ${line[0]}   held-out: ${line[1]}`);
  for (const [set, at] of sets) {
    const changed = at.filter((i) => rank[i]! <= 5 !== baseline[i]! <= 5);
    for (const i of changed) {
      const q = queries[i]!;
      console.log(`    ${rank[i]! <= 5 ? 'fixes' : 'breaks'} (${set}) ${q.relevant[0]}: ${baseline[i]} -> ${rank[i]}`);
    }
  }
}

console.log('\nbaseline misses (rank of the target under q alone, then under variants 2-5):');
const all = variants.map(([, k, alpha]) => firstRanks(k, alpha));
for (const [set, at] of sets) {
  for (const i of at.filter((i) => baseline[i]! > 5)) {
    const q = queries[i]!;
    console.log(`${set}\t${all.map((r) => r[i]).join('\t')}\t${q.relevant[0]}\t"${q.query}"`);
  }
}
