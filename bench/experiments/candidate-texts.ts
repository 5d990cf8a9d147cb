/**
 * Writes what the model candidates embed (experiments/model-candidates.py): each corpus page's
 * vector text as the analysis builds it (title. description. page text, from the real extractor)
 * and the paraphrase queries of search-queries.json.
 *
 *   node --conditions=@linkwise/source --import tsx experiments/candidate-texts.ts OUT.json   (from bench/)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageText } from '../../apps/server/src/modules/ml/embedder.js';
import { corpusFacts } from '../lib/corpus.js';

const out = process.argv[2];
if (!out) throw new Error('usage: candidate-texts.ts OUT.json');
const queries = JSON.parse(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../search-queries.json'), 'utf8'),
) as unknown[];
const pages = Object.fromEntries(
  corpusFacts().map(({ name, facts }) => [name, pageText(facts.title, facts.description, facts.text)]),
);
writeFileSync(out, JSON.stringify({ pages, queries }, null, 1));
console.log(`${Object.keys(pages).length} pages, ${queries.length} queries → ${out}`);
