/**
 * The AI description without an LLM, judged by hand on 30 corpus pages: every non-English page and
 * 24 English ones evenly spaced in name order. For each page it prints the previous summary (the
 * first sentences of the description, or of the text) and the extractive one (summary.ts, with the
 * offline model from MODELS_DIR), each with its judgement from bench/summary-judgements.json
 * (keyed by page, then by the summary's exact text: a summary that changed shows as UNJUDGED), then
 * the counts. Also the cost: the time to embed the summary candidates of all 88 pages against the
 * time to embed the 88 page texts, in one run (a ratio; absolute times are noisy here).
 *
 *   npm run bench:summary -w @linkwise/bench            (VERBOSE=1 also prints each page's lead)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageText } from '../apps/server/src/modules/ml/embedder.js';
import { extractiveSummary, scoreSentences } from '../apps/server/src/modules/analysis/summary.js';
import type { PageFacts } from '../apps/server/src/modules/pages/extractor.js';
import { corpusFacts } from './lib/corpus.js';
import { createEmbedder } from './lib/embedder.js';

type Verdict = 'good' | 'acceptable' | 'bad';
interface Judgement {
  verdict: Verdict;
  reason: string;
}

/** The summary before summary.ts, kept here as the baseline: the description's (or text's) first sentences. */
function firstSentences(facts: PageFacts): string | null {
  const source = (facts.description && facts.description.length >= 40 ? facts.description : facts.text).slice(0, 2000);
  if (!source) return null;
  const sentences = source.match(/[^.!?…]+(?:[.!?…]+["”’)]?|$)/g)?.map((s) => s.trim()) ?? [];
  let out = '';
  for (const sentence of sentences.slice(0, 2)) {
    if (out && out.length + sentence.length > 300) break;
    out = out ? `${out} ${sentence}` : sentence;
  }
  if (out.length > 300) out = `${out.slice(0, 297).replace(/\s+\S*$/, '')}…`;
  return out || null;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const judgements = JSON.parse(readFileSync(path.join(here, 'summary-judgements.json'), 'utf8')) as Record<
  string,
  Record<string, Judgement>
>;

const all = corpusFacts();
const foreign = all.filter(({ facts }) => facts.lang && !facts.lang.startsWith('en'));
const english = all.filter((page) => !foreign.includes(page));
const ENGLISH_PICKS = 30 - foreign.length;
const picked = new Set([
  ...foreign.map((p) => p.name),
  ...Array.from({ length: ENGLISH_PICKS }, (_, i) => english[Math.floor((i * english.length) / ENGLISH_PICKS)]!.name),
]);
const pages = all.filter((p) => picked.has(p.name));

const embedder = await createEmbedder();
const counts = { old: new Map<string, number>(), new: new Map<string, number>() };
const tally = (which: 'old' | 'new', key: string) => counts[which].set(key, (counts[which].get(key) ?? 0) + 1);
const show = (page: string, summary: string | null): string => {
  const key = summary ?? '';
  const judged = judgements[page]?.[key];
  return `${judged ? `${judged.verdict.toUpperCase()} (${judged.reason})` : 'UNJUDGED'}\n      ${JSON.stringify(summary)}`;
};

for (const { name, facts } of pages) {
  const [vector] = await embedder.embed([pageText(facts.title, facts.description, facts.text)]);
  const before = firstSentences(facts);
  const after = await extractiveSummary(facts, vector!, embedder);
  tally('old', judgements[name]?.[before ?? '']?.verdict ?? 'unjudged');
  tally('new', judgements[name]?.[after ?? '']?.verdict ?? 'unjudged');
  console.log(`\n## ${name} [${facts.lang ?? '?'}] ${facts.title ?? ''}`);
  if (process.env.VERBOSE) {
    console.log(`   description: ${JSON.stringify(facts.description)}`);
    console.log(`   lead: ${JSON.stringify(facts.text.slice(0, 1200))}`);
    for (const s of (await scoreSentences(facts, vector!, embedder)).sentences) {
      console.log(
        `   ${s.fromDescription ? 'D' : ' '} ${s.score.toFixed(3)} ${s.meaning.toFixed(3)} ${s.text.slice(0, 90)}`,
      );
    }
  }
  console.log(`   old: ${show(name, before)}`);
  console.log(`   new: ${before === after ? '(same as old)' : show(name, after)}`);
}

const line = (which: 'old' | 'new') =>
  ['good', 'acceptable', 'bad', 'unjudged'].map((k) => `${k} ${counts[which].get(k) ?? 0}`).join(', ');
console.log(`\n${pages.length} pages (${foreign.length} not in English)`);
console.log(`old (first sentences): ${line('old')}`);
console.log(`new (extractive):      ${line('new')}`);

// Cost: scoring every page's candidates (their embedding is the summary's cost) against embedding
// the page texts, by the same model in one run.
const texts = all.map(({ facts }) => pageText(facts.title, facts.description, facts.text));
await embedder.embed(['warm up']);
let t = performance.now();
await embedder.embed(texts);
const pagesMs = performance.now() - t;
let sentences = 0;
t = performance.now();
for (const { facts } of all) {
  sentences += (await scoreSentences(facts, new Float32Array(embedder.dimensions), embedder)).sentences.length;
}
const summaryMs = performance.now() - t;
console.log(
  `\ncost over ${all.length} pages: page vectors ${pagesMs.toFixed(0)} ms, summaries ${summaryMs.toFixed(0)} ms ` +
    `(${sentences} candidate sentences, ${(sentences / all.length).toFixed(1)} a page): ` +
    `${(summaryMs / pagesMs).toFixed(2)}× the page vectors' time`,
);
await embedder.close();
