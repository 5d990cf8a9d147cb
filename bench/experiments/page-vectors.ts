/**
 * Which text should a link's vector be made of? Ranks the 88 corpus pages by cosine for every
 * paraphrase query of search-queries.json under several page-vector variants and prints success@5
 * and MRR@10, separately for the first query set and the held-out one (bench/RESULTS.md, "Search
 * quality"). Vectors only: no database, no text search (the queries share no word with their target).
 *
 *   node --conditions=@linkwise/source --import tsx experiments/page-vectors.ts     (from bench/)
 */
import { cosine } from '../../apps/server/src/modules/ml/embedder.js';
import { corpusFacts } from '../lib/corpus.js';
import { mean, paraphraseQueries, withEmbedder, words } from './corpus-facts.js';

const queries = paraphraseQueries();
const pages = corpusFacts();
const { titleDescription, page, chunks, wide, queryVectors } = await withEmbedder(async (embed) => ({
  titleDescription: await embed(pages.map(({ facts }) => [facts.title, facts.description].filter(Boolean).join('. '))),
  page: await embed(pages.map(({ facts }) => [facts.title, facts.description, facts.text].filter(Boolean).join('. '))),
  chunks: await Promise.all(
    [0, 1, 2].map((k) => embed(pages.map(({ facts }) => words(facts.text, k * 100, (k + 1) * 100)))),
  ),
  wide: await Promise.all(
    [0, 1, 2, 3].map((k) => embed(pages.map(({ facts }) => words(facts.text, k * 150, (k + 1) * 150)))),
  ),
  queryVectors: await embed(queries.map((q) => q.query)),
}));

const c = (k: number) => chunks[k]!;
const variants: Record<string, (p: number) => Float32Array[]> = {
  'title + description + text (the job today)': (p) => [page[p]!],
  'title + description only': (p) => [titleDescription[p]!],
  'mean of (title + description) and (text)': (p) => [mean(titleDescription[p]!, c(0)[p]!)],
  '(title + description) + mean of 3 chunks': (p) => [mean(titleDescription[p]!, mean(c(0)[p]!, c(1)[p]!, c(2)[p]!))],
  'mean of (title + description) and 3 chunks': (p) => [mean(titleDescription[p]!, c(0)[p]!, c(1)[p]!, c(2)[p]!)],
  'max over (title + description), (text)': (p) => [titleDescription[p]!, c(0)[p]!],
  'max over page, 3 chunks of 100 words': (p) => [page[p]!, c(0)[p]!, c(1)[p]!, c(2)[p]!],
  'max over (title + description), 3 chunks': (p) => [titleDescription[p]!, c(0)[p]!, c(1)[p]!, c(2)[p]!],
  'max over page, 4 chunks of 150 words': (p) => [page[p]!, ...wide.map((w) => w[p]!)],
  'mean of page and 4 chunks of 150 words': (p) => [mean(page[p]!, ...wide.map((w) => w[p]!))],
};

for (const [name, vectorsOf] of Object.entries(variants)) {
  const line: string[] = [];
  for (const set of [queries.filter((q) => !q.set), queries.filter((q) => q.set === 'heldout')]) {
    let hits = 0;
    let rr = 0;
    for (const q of set) {
      const qv = queryVectors[queries.indexOf(q)]!;
      const ranked = pages
        .map(({ name: page }, p) => ({ page, score: Math.max(...vectorsOf(p).map((v) => cosine(qv, v))) }))
        .sort((a, b) => b.score - a.score)
        .map((r) => r.page);
      const rank = ranked.findIndex((p) => q.relevant.includes(p)) + 1;
      if (rank <= 5) hits++;
      if (rank <= 10) rr += 1 / rank;
    }
    line.push(`s@5 ${(hits / set.length).toFixed(2)} MRR ${(rr / set.length).toFixed(2)} (${set.length})`);
  }
  console.log(`${name.padEnd(46)} first: ${line[0]}   held-out: ${line[1]}`);
}
