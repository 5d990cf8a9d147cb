/**
 * Calibrates the cosine above which two tags are suggested as one meaning, per offline model: embeds
 * the hand-made pairs of bench/tag-pairs.json (same meaning vs. related but different) the way the
 * tag manager does, prints each cosine, and the threshold that separates the two lists best. Then
 * times the pairing of the most used tags the manager considers (TAG_MEANING_CAP), on random unit vectors.
 *
 *   npm run bench:tag-meaning -w bench            # every offline model (the transformers from MODELS_DIR)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cosine, normalize } from '../apps/server/src/modules/ml/embedder.js';
import { meaningPairs, TAG_MEANING_CAP } from '../apps/server/src/modules/links/tag-meaning.js';
import { tagText } from '../apps/server/src/modules/ml/tag-vectors.js';
import { createEmbedder } from './lib/embedder.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const pairs = JSON.parse(readFileSync(path.join(here, 'tag-pairs.json'), 'utf8')) as {
  same: [string, string][];
  different: [string, string][];
};

for (const name of (
  process.env.BENCH_MODELS ?? 'use-lite,all-minilm-l6-v2,minilm-use-multilingual,minilm-bge-use-multilingual'
).split(',')) {
  const embedder = await createEmbedder(name);
  const score = async (list: [string, string][]) => {
    const vectors = await embedder.embed(list.flat().map(tagText));
    return list.map((_, i) => cosine(vectors[2 * i]!, vectors[2 * i + 1]!));
  };
  const same = await score(pairs.same);
  const different = await score(pairs.different);
  console.log(`\n## ${embedder.modelId}`);
  pairs.same.forEach(([a, b], i) => console.log(`same       ${same[i]!.toFixed(3)}  ${a} / ${b}`));
  pairs.different.forEach(([a, b], i) => console.log(`different  ${different[i]!.toFixed(3)}  ${a} / ${b}`));
  // The lowest threshold with no related-but-different pair above it, and how many synonyms it finds.
  const maxDifferent = Math.max(...different);
  const threshold = Math.ceil((maxDifferent + 0.005) * 100) / 100;
  const found = same.filter((c) => c >= threshold).length;
  console.log(
    `highest different ${maxDifferent.toFixed(3)}; threshold ${threshold}: ${found}/${same.length} same-meaning pairs found, 0/${different.length} different`,
  );
  for (const t of [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85]) {
    const s = same.filter((c) => c >= t).length;
    const d = different.filter((c) => c >= t).length;
    console.log(`  at ${t.toFixed(2)}: same ${s}/${same.length}, different ${d}/${different.length}`);
  }
  await embedder.close();
}

// Pairing cost at the cap, with random vectors (fixed seed): the work a visit does once vectors are cached.
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
for (const dims of [384, 512]) {
  const tags = Array.from({ length: TAG_MEANING_CAP }, (_, i) => ({
    id: `t${i}`,
    name: `tag${i}`,
    count: TAG_MEANING_CAP - i,
  }));
  const vectors = new Map(tags.map((t) => [t.name, normalize(Float32Array.from({ length: dims }, random))]));
  const started = performance.now();
  meaningPairs(tags, vectors, 0.9);
  console.log(`pairing ${TAG_MEANING_CAP} tags, ${dims} dimensions: ${(performance.now() - started).toFixed(0)} ms`);
}
