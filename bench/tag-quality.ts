/**
 * Tag quality on the 88 corpus pages against the hand judgements of bench/tag-judgements.json:
 * precision (proposed tags judged acceptable / proposed), tags per page, pages without a tag and
 * boilerplate hits (a site-furniture word as or inside a tag on a page not about it), for the
 * frequency tagger (`keywordTags`) and the keyphrase tagger (`keyphraseTags`, the offline model), on
 * the server's own extraction of each page. Also the keyphrase tagger's cost: pages per second of
 * the page vector alone and of the page vector plus the tags. Last, the cosines of the abbreviation-shaped
 * pairs of bench/tag-pairs.json (same meaning, different, and look-alike controls) that set
 * the abbreviation floor (per model, abbreviationFloor): just above the highest pair that does not mean the same.
 *
 *   npm run bench:tags -w @linkwise/bench         (MODELS_DIR: the provisioned offline model)
 *   TAGS_SHOW=1 ...                                prints each page's tags
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tagKey } from '@linkwise/contract';
import { isAbbreviation, keyphraseTags } from '../apps/server/src/modules/analysis/keyphrases.js';
import { keywordTags } from '../apps/server/src/modules/analysis/understanding.js';
import { cosine, pageText } from '../apps/server/src/modules/ml/embedder.js';
import { abbreviationFloor, tagText } from '../apps/server/src/modules/ml/tag-vectors.js';
import type { PageFacts } from '../apps/server/src/modules/pages/extractor.js';
import { corpusFacts } from './lib/corpus.js';
import { createEmbedder } from './lib/embedder.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const judgements = JSON.parse(readFileSync(path.join(BENCH_DIR, 'tag-judgements.json'), 'utf8')) as {
  pages: Record<string, string[]>;
  boilerplate: string[];
  boilerplateExempt: Record<string, string[]>;
};

/** How a proposed tag is matched to a judged one: case, separators and a plural -s aside. */
export const judgedKey = (tag: string): string => {
  const key = tagKey(tag).replace(/[\s\-_.]+/g, '');
  return key.length > 3 ? key.replace(/s$/, '') : key;
};

function boilerplateHits(name: string, tags: string[]): string[] {
  return tags.filter((tag) => {
    const key = tagKey(tag);
    const words = [key, ...key.split(/[\s\-_.]+/)];
    return judgements.boilerplate.some(
      (b) => words.includes(b) && !(judgements.boilerplateExempt[b] ?? []).includes(name),
    );
  });
}

interface Score {
  proposed: number;
  accepted: number;
  pages: number;
  empty: number;
  hits: string[];
}

function score(results: { name: string; tags: string[] }[]): Score {
  const out: Score = { proposed: 0, accepted: 0, pages: 0, empty: 0, hits: [] };
  for (const { name, tags } of results) {
    const judged = judgements.pages[name];
    if (!judged) continue;
    const ok = new Set(judged.map(judgedKey));
    out.pages += 1;
    out.proposed += tags.length;
    out.accepted += tags.filter((t) => ok.has(judgedKey(t))).length;
    if (tags.length === 0) out.empty += 1;
    out.hits.push(...boilerplateHits(name, tags).map((t) => `${name}: ${t}`));
  }
  return out;
}

const line = (label: string, s: Score) =>
  `| ${label} | ${s.pages} | ${((100 * s.accepted) / Math.max(1, s.proposed)).toFixed(1)} % (${s.accepted}/${s.proposed}) | ` +
  `${(s.proposed / s.pages).toFixed(2)} | ${s.empty} | ${s.hits.length}${s.hits.length ? ` (${s.hits.join(', ')})` : ''} |`;

const pages: { name: string; facts: PageFacts }[] = corpusFacts();
const embedder = await createEmbedder();
await embedder.embed(['warm up']);

const texts = pages.map(({ facts }) => pageText(facts.title, facts.description, facts.text));
let started = performance.now();
const vectors: Float32Array[] = [];
for (const text of texts) vectors.push((await embedder.embed([text]))[0]!);
const vectorSeconds = (performance.now() - started) / 1000;

started = performance.now();
const fresh: { name: string; tags: string[] }[] = [];
for (const [i, { name, facts }] of pages.entries()) {
  fresh.push({ name, tags: await keyphraseTags(facts, vectors[i]!, [], embedder) });
}
const tagSeconds = (performance.now() - started) / 1000;
const old = pages.map(({ name, facts }) => ({ name, tags: keywordTags(facts, []) }));

const pairs = JSON.parse(readFileSync(path.join(BENCH_DIR, 'tag-pairs.json'), 'utf8')) as Record<
  'same' | 'different' | 'abbreviationControls',
  [string, string][]
>;
const abbreviations: string[] = [];
for (const kind of ['same', 'different', 'abbreviationControls'] as const) {
  for (const [a, b] of pairs[kind]) {
    const [short, long] = isAbbreviation(a, b) ? [a, b] : [b, a];
    if (!isAbbreviation(short, long)) continue;
    const [va, vb] = await embedder.embed([tagText(short), tagText(long)]);
    const similarity = cosine(va!, vb!);
    const verdict = similarity >= abbreviationFloor(embedder.modelId) ? 'preferred' : 'not preferred';
    abbreviations.push(`| ${kind} | ${short} / ${long} | ${similarity.toFixed(3)} | ${verdict} |`);
  }
}
await embedder.close();

if (process.env.TAGS_SHOW) {
  for (const [i, { name }] of pages.entries()) {
    console.log(`${name}\n  old: ${old[i]!.tags.join(', ')}\n  new: ${fresh[i]!.tags.join(', ')}`);
  }
}
console.log(`model ${embedder.modelId}, ${pages.length} pages`);
console.log('| tagger | pages | precision | tags / page | pages without tags | boilerplate hits |');
console.log('| --- | --- | --- | --- | --- | --- |');
console.log(line('frequency (keywordTags)', score(old)));
console.log(line('keyphrases (keyphraseTags)', score(fresh)));
const perPage = (s: number) => (pages.length / s).toFixed(2);
console.log(
  `\npages/s, one page at a time: page vector only ${perPage(vectorSeconds)}, page vector + keyphrase tags ` +
    `${perPage(vectorSeconds + tagSeconds)} (ratio ${(vectorSeconds / (vectorSeconds + tagSeconds)).toFixed(2)})`,
);
console.log(`\nabbreviation-shaped pairs, abbreviation floor ${abbreviationFloor(embedder.modelId)}`);
console.log('| pair kind | abbreviation / tag | cosine | existing tag |\n| --- | --- | --- | --- |');
console.log(abbreviations.join('\n'));
