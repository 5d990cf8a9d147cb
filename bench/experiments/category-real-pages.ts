/**
 * Does the category head learn more from real labelled pages than from written ones? The head is
 * trained on the written examples plus the labelled corpus pages (`labels`, each repeated w times),
 * and the fused model (anchors + priors + head 0.25, a user without history) is scored by 4-fold
 * cross-validation on `labels`: the 13 pages of a fold are classified by a head that never saw them.
 *
 *   node --conditions=@linkwise/source --import tsx experiments/category-real-pages.ts     (from bench/)
 *
 * The rule, set before the first run (decision 0024, second addendum): w from {1, 5, 20} is taken
 * only if its cross-validated score on `labels` beats w = 0 (the written examples alone) by at least
 * 2 of the 52 pages. The held-out sets and the blind labelling are scored once, by the head trained on
 * all 52 pages with the chosen w, and never choose anything.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CATEGORIES } from '@linkwise/contract';
import {
  CATEGORY_HEAD_TRAINING,
  trainCategoryHead,
  type CategoryHeadData,
} from '../../apps/server/src/modules/analysis/category-head.js';
import { CATEGORY_WEIGHTS, CategoryModel } from '../../apps/server/src/modules/analysis/category-model.js';
import { pageText } from '../../apps/server/src/modules/ml/embedder.js';
import { corpusFacts } from '../lib/corpus.js';
import { createEmbedder } from '../lib/embedder.js';

type Labels = Record<string, string>;
const here = path.dirname(fileURLToPath(import.meta.url));
const file = JSON.parse(readFileSync(path.join(here, '../category-labels.json'), 'utf8')) as {
  labels: Labels;
  heldout: Labels;
  heldout2: Labels;
};
const policy = JSON.parse(readFileSync(path.join(here, '../category-labels-policy.json'), 'utf8')) as {
  pages: Record<string, { category: string }>;
};
const written = JSON.parse(
  readFileSync(path.join(here, '../../apps/server/src/modules/analysis/category-examples.json'), 'utf8'),
) as Record<string, string[]>;

const embedder = await createEmbedder();
const classes: string[] = [...DEFAULT_CATEGORIES];
const examples = classes.flatMap((category) => written[category]!.map((text) => ({ category, text })));
const exampleVectors: Float32Array[] = [];
for (let i = 0; i < examples.length; i += 32)
  exampleVectors.push(...(await embedder.embed(examples.slice(i, i + 32).map((e) => e.text))));
const pages = corpusFacts();
const index = new Map(pages.map((p, i) => [p.name, i]));
const pageVectors = await embedder.embed(
  pages.map(({ facts }) => pageText(facts.title, facts.description, facts.text) || '-'),
);

const labelled = Object.keys(file.labels).sort();
const folds = [0, 1, 2, 3].map((f) => labelled.filter((_, i) => i % 4 === f));

function train(realPages: string[], w: number): CategoryHeadData {
  const vectors = [...exampleVectors];
  const labels = examples.map((e) => e.category);
  for (let r = 0; r < w; r++)
    for (const name of realPages) {
      vectors.push(pageVectors[index.get(name)!]!);
      labels.push(file.labels[name]!);
    }
  const { weights, bias } = trainCategoryHead(vectors, labels, classes, CATEGORY_HEAD_TRAINING);
  return {
    modelId: embedder.modelId,
    examplesSha256: '',
    l2: CATEGORY_HEAD_TRAINING.l2,
    classes,
    dimensions: embedder.dimensions,
    weights: Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength).toString('base64'),
    bias: [...bias],
  };
}

async function score(head: CategoryHeadData, set: Labels): Promise<number> {
  const model = new CategoryModel(embedder, { ...CATEGORY_WEIGHTS, head: 0.25 }, () => Promise.resolve(head));
  let right = 0;
  for (const [name, label] of Object.entries(set)) {
    const i = index.get(name)!;
    if ((await model.classify(pageVectors[i]!, [], { facts: pages[i]!.facts })).category === label) right++;
  }
  return right;
}

const cv = new Map<number, number>();
for (const w of [0, 1, 5, 20]) {
  let right = 0;
  for (const fold of folds) {
    const head = train(
      labelled.filter((n) => !fold.includes(n)),
      w,
    );
    right += await score(head, Object.fromEntries(fold.map((n) => [n, file.labels[n]!])));
  }
  cv.set(w, right);
  console.log(`| w = ${w} | ${right}/52 (4-fold, fused) |`);
}
const best = [1, 5, 20].reduce((a, b) => (cv.get(b)! > cv.get(a)! ? b : a));
const taken = cv.get(best)! - cv.get(0)! >= 2;
console.log(
  `best w = ${best}: ${cv.get(best)} against ${cv.get(0)} with the written examples alone → ${taken ? 'taken' : 'not taken'}`,
);

const head = train(labelled, best);
const policySet = Object.fromEntries(Object.entries(policy.pages).map(([n, p]) => [n, p.category]));
console.log(
  `trained on all 52 with w = ${best}: held-out ${await score(head, file.heldout)}/14, held-out 2 ${await score(head, file.heldout2)}/20, blind policy labels ${await score(head, policySet)}/88`,
);
await embedder.close();
