// Trains the category head (apps/server/src/modules/analysis/category-head.ts) on the labelled
// example pages and writes it, formatted, as category-head.data.ts. Run again after editing the examples or
// changing the default model (a test fails until then); needs the provisioned model:
//
//   node --conditions=@linkwise/source --import tsx scripts/train-category-head.ts
//
// MODELS_DIR defaults to ./data/models (where scripts/provision-model.py puts it).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import {
  CATEGORY_HEAD_TRAINING,
  trainCategoryHead,
  type CategoryHeadData,
} from '../apps/server/src/modules/analysis/category-head.js';
import { DEFAULT_CATEGORIES } from '@linkwise/contract';
import { MINILM_BGE_USE_MULTILINGUAL } from '../apps/server/src/modules/ml/local-models.js';
import { checkModelFolder } from '../apps/server/src/modules/ml/model-files.js';
import { TransformerEmbedder } from '../apps/server/src/modules/ml/offline-embedder.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const modelsDir = process.env.MODELS_DIR ?? path.join(root, 'data', 'models');
const folder = path.join(root, 'apps/server/src/modules/analysis');
const examplesFile = path.join(folder, 'category-examples.json');
const out = path.join(folder, 'category-head.data.ts');
// The default offline model (config LOCAL_MODEL): the head reads its page vectors only.
const model = MINILM_BGE_USE_MULTILINGUAL;

const problem = await checkModelFolder(modelsDir, model);
if (problem) throw new Error(`${problem}: run python3 scripts/provision-model.py first`);
const embedder = new TransformerEmbedder(model, modelsDir, Number(process.env.MODEL_THREADS ?? 2));
const parsed = JSON.parse(readFileSync(examplesFile, 'utf8')) as Record<string, string[]>;
// Of the examples themselves, not of the file's layout.
const sha256 = createHash('sha256').update(JSON.stringify(parsed)).digest('hex');
// One class per category of the spec's list (`Other` included), in its order.
const classes: string[] = [...DEFAULT_CATEGORIES];
const unknown = Object.keys(parsed).filter((c) => !classes.includes(c));
const missing = classes.filter((c) => !parsed[c]?.length);
if (unknown.length || missing.length)
  throw new Error(`examples: unknown categories [${unknown.join(', ')}], none for [${missing.join(', ')}]`);
const examples = classes.flatMap((category) => parsed[category]!.map((text) => ({ category, text })));
console.log(`embedding ${examples.length} examples with ${embedder.modelId}…`);
const vectors: Float32Array[] = [];
for (let i = 0; i < examples.length; i += 32) {
  vectors.push(...(await embedder.embed(examples.slice(i, i + 32).map((e) => e.text))));
  process.stdout.write(`\r${vectors.length} of ${examples.length}`);
}
await embedder.close();
const { l2, iterations } = CATEGORY_HEAD_TRAINING;
console.log(`\ntraining: ${classes.length} classes, L2 ${l2}, ${iterations} iterations…`);
const { weights, bias, loss } = trainCategoryHead(
  vectors,
  examples.map((e) => e.category),
  classes,
  CATEGORY_HEAD_TRAINING,
);
const data: Omit<CategoryHeadData, 'classes'> = {
  modelId: embedder.modelId,
  examplesSha256: sha256,
  l2,
  dimensions: embedder.dimensions,
  weights: Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength).toString('base64'),
  bias: [...bias].map((b) => Number(b.toPrecision(9))),
};
// The weight rows follow DEFAULT_CATEGORIES; the test that the examples are keyed in that order and
// unchanged (examplesSha256) catches a reordered list.
const fields = Object.entries(data).map(([name, value]) => `${name}: ${JSON.stringify(value)},`);
fields.splice(3, 0, 'classes: [...DEFAULT_CATEGORIES],');
const source =
  `// Written by scripts/train-category-head.ts from category-examples.json: do not edit.\n` +
  `import { DEFAULT_CATEGORIES } from '@linkwise/contract';\n` +
  `import type { CategoryHeadData } from './category-head.js';\n\n` +
  `export const CATEGORY_HEAD: CategoryHeadData = {\n${fields.join('\n')}\n};\n`;
writeFileSync(out, await prettier.format(source, { ...(await prettier.resolveConfig(out)), filepath: out }));
console.log(`loss ${loss.toFixed(4)}; wrote ${path.relative(root, out)}`);
