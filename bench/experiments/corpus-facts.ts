/** Helpers the experiments share: the paraphrase queries, the model (BENCH_MODEL), vector arithmetic. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageText, type EmbedPurpose } from '../../apps/server/src/modules/ml/embedder.js';
import { createEmbedder } from '../lib/embedder.js';
import type { PageFacts } from '../../apps/server/src/modules/pages/extractor.js';

/** Element-wise sum of unit vectors, scaled back to unit length. */
export function mean(...vectors: Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]?.length ?? 0);
  for (const v of vectors) v.forEach((x, d) => (out[d] = (out[d] ?? 0) + x));
  const norm = Math.hypot(...out);
  return norm > 0 ? out.map((x) => x / norm) : out;
}

export const words = (text: string, from: number, to: number) =>
  text.split(/\s+/).filter(Boolean).slice(from, to).join(' ');

/** A paraphrase query of bench/search-queries.json: its relevant pages, and its set. */
export interface Query {
  query: string;
  relevant: string[];
  set?: 'heldout';
}

export function paraphraseQueries(): Query[] {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../search-queries.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Query[];
}

type Embed = (texts: string[], purpose?: EmbedPurpose) => Promise<Float32Array[]>;

/** The model (BENCH_MODEL) in its worker thread: `embed` for the duration of `work`, an empty text as "-". */
export async function withEmbedder<T>(work: (embed: Embed) => Promise<T>) {
  const embedder = await createEmbedder();
  try {
    return await work((texts, purpose) =>
      embedder.embed(
        texts.map((t) => t || '-'),
        purpose,
      ),
    );
  } finally {
    await embedder.close();
  }
}

/** The production vectors: each page's (`pageText` of title, description and text) and each query's. */
export function productionVectors(pages: { facts: PageFacts }[], queries: Query[]) {
  return withEmbedder(async (embed) => ({
    pages: await embed(pages.map(({ facts }) => pageText(facts.title, facts.description, facts.text))),
    queries: await embed(
      queries.map((q) => q.query),
      'query',
    ),
  }));
}
