/**
 * Offline category accuracy of the anchor-phrase model under several page vectors, on the labelled
 * and the held-out pages of category-labels.json (bench/RESULTS.md, "Link intelligence").
 *
 *   node --conditions=@linkwise/source --import tsx experiments/category-vectors.ts     (from bench/)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CategoryModel } from '../../apps/server/src/modules/analysis/category-model.js';
import { corpusFacts } from '../lib/corpus.js';
import { createEmbedder } from '../lib/embedder.js';
import { mean } from './corpus-facts.js';

const { labels, heldout } = JSON.parse(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../category-labels.json'), 'utf8'),
) as { labels: Record<string, string>; heldout: Record<string, string> };
const pages = corpusFacts();
// BENCH_MODEL=use-lite for the model the anchors were tuned on; the offline transformer by default.
const embedder = await createEmbedder();
const model = new CategoryModel(embedder);
const embed = (texts: string[]) => embedder.embed(texts.map((t) => t || '-'));
const page = await embed(
  pages.map(({ facts }) => [facts.title, facts.description, facts.text].filter(Boolean).join('. ')),
);
const titleDescription = await embed(
  pages.map(({ facts }) => [facts.title, facts.description].filter(Boolean).join('. ')),
);
const text = await embed(pages.map(({ facts }) => facts.text));
const variants: Record<string, Float32Array[]> = {
  'title + description + text (the job today)': page,
  'title + description only': titleDescription,
  'text only': text,
  'mean of (title + description) and (text)': titleDescription.map((v, i) => mean(v, text[i]!)),
};
for (const [name, vectors] of Object.entries(variants)) {
  const line: string[] = [];
  for (const set of [labels, heldout]) {
    let right = 0;
    for (const [pageName, label] of Object.entries(set)) {
      const i = pages.findIndex((p) => p.name === pageName);
      if ((await model.classify(vectors[i]!, [])).category === label) right++;
    }
    line.push(`${right}/${Object.keys(set).length}`);
  }
  console.log(`${name.padEnd(44)} labels ${line[0]}   held-out ${line[1]}`);
}
await embedder.close();
