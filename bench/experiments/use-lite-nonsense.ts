/**
 * Where USE-lite puts a query against the mean of what it makes of random letters (decision 0011's
 * second addendum): the queries that must find nothing, the 102 paraphrases and a few single words,
 * each with its cosine to that mean and whether the model reads it as nonsense (`readsAsNonsense`:
 * no whole vocabulary word, and the cosine at least NONSENSE_COSINE).
 *
 *   node --conditions=@linkwise/source --import tsx experiments/use-lite-nonsense.ts     (from bench/)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UseLiteModel } from '../../apps/server/src/modules/ml/use-lite.model.js';
import { NOTHING_QUERIES } from '../lib/corpus.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const model = await UseLiteModel.load();
const paraphrases = (
  JSON.parse(readFileSync(path.join(here, '../search-queries.json'), 'utf8')) as { query: string }[]
).map((q) => q.query);
const words = [
  'cooking',
  'risotto',
  'Zenefits',
  'kubernetes',
  'cryptocurrency',
  'webpack',
  'falconry',
  'espresso',
  'GDPR',
];
const rows: { cosine: number; kind: string; query: string; nonsense: boolean }[] = [];
for (const [kind, list] of [
  ['nothing to find', [...NOTHING_QUERIES, 'qwpoeiruty zxmcnvb', 'hjkl', 'ytrewq']],
  ['paraphrase', paraphrases],
  ['word', words],
] as const) {
  for (const query of list) {
    const [vector] = await model.embed([query]);
    const cosine = model.nonsenseCosine(vector!);
    rows.push({ cosine, kind, query, nonsense: model.readsAsNonsense(query, vector!) });
  }
}
rows.sort((a, b) => b.cosine - a.cosine);
console.log('| cosine to random letters | kind | nonsense | query |\n| --- | --- | --- | --- |');
for (const r of rows.slice(0, 30))
  console.log(`| ${r.cosine.toFixed(3)} | ${r.kind} | ${r.nonsense ? 'yes' : ''} | ${r.query} |`);
const count = (kind: string) => rows.filter((r) => r.kind === kind && r.nonsense).length;
console.log(
  `\nread as nonsense: nothing to find ${count('nothing to find')}, paraphrases ${count('paraphrase')}, words ${count('word')}`,
);
