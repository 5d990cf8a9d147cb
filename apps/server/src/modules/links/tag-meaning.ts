import type { TagMergeSuggestion, TagSummary } from '@linkwise/contract';
import type { Embedder } from '../ml/embedder.js';
import { ALL_MINILM_L6_V2, MINILM_USE_MULTILINGUAL } from '../ml/local-models.js';
import { USE_LITE_MODEL_ID } from '../ml/use-lite.constants.js';
import { keeper, spellingKey } from './tag-suggestions.js';

/** The most used tags compared by meaning: pairing is quadratic, so thousands of rare tags are left out. */
export const TAG_MEANING_CAP = 500;

/**
 * Per model, the cosine from which two tags are suggested as one meaning: just above the closest
 * related-but-different pair of bench/tag-pairs.json (decision 0014). A model not listed here
 * (a remote one) gets no meaning suggestions rather than an uncalibrated guess.
 */
export const MEANING_THRESHOLDS: Readonly<Record<string, number>> = {
  [USE_LITE_MODEL_ID]: 0.7,
  [ALL_MINILM_L6_V2.id]: 0.8,
  [MINILM_USE_MULTILINGUAL.id]: 0.8,
};

/** What a tag's vector is made of: its words, so "machine-learning" reads as "machine learning". */
export function tagText(name: string): string {
  return name.replace(/[-_./]+/g, ' ').trim();
}

/**
 * Pairs of tags whose vectors are at least `threshold` alike, closest first, each merging into the
 * more used. A tag is merged away once and a tag that absorbs others is never itself merged away, so
 * suggestions never chain. Tags in `taken` (already merged away by a spelling suggestion) and pairs
 * that are one spelling are left out: those are spelling suggestions.
 */
export function meaningPairs(
  tags: readonly TagSummary[],
  vectors: ReadonlyMap<string, Float32Array>,
  threshold: number,
  taken: ReadonlySet<string> = new Set(),
  limit = 50,
): TagMergeSuggestion[] {
  const keyed = tags
    .filter((t) => !taken.has(t.name) && vectors.has(t.name))
    .map((tag) => ({ tag, key: spellingKey(tag.name), vector: vectors.get(tag.name)! }));
  // One flat array: the quadratic loop reads memory in order instead of chasing one array per tag.
  const dims = keyed[0]?.vector.length ?? 0;
  const flat = new Float32Array(keyed.length * dims);
  keyed.forEach((k, i) => flat.set(k.vector.subarray(0, dims), i * dims));
  const close: { similarity: number; a: TagSummary; b: TagSummary }[] = [];
  for (let i = 0; i < keyed.length; i++) {
    const ai = i * dims;
    for (let j = i + 1; j < keyed.length; j++) {
      const bj = j * dims;
      let similarity = 0;
      for (let d = 0; d < dims; d++) similarity += flat[ai + d]! * flat[bj + d]!;
      if (similarity < threshold || keyed[i]!.key === keyed[j]!.key) continue;
      close.push({ similarity, a: keyed[i]!.tag, b: keyed[j]!.tag });
    }
  }
  close.sort((x, y) => y.similarity - x.similarity);
  const mergedAway = new Set<string>();
  const absorbing = new Set<string>();
  const out: TagMergeSuggestion[] = [];
  for (const { a, b } of close) {
    if (out.length >= limit) break;
    const [into, from] = keeper(a, b);
    if (mergedAway.has(from.name) || mergedAway.has(into.name) || absorbing.has(from.name)) continue;
    mergedAway.add(from.name);
    absorbing.add(into.name);
    out.push({ from: from.name, into: into.name, why: 'meaning' });
  }
  return out;
}

/**
 * Tag vectors kept in memory, keyed by model and tag name, least recently used dropped past `max`:
 * a visit to the tag manager embeds only the tags it has not seen before.
 */
export class TagVectorCache {
  private readonly entries = new Map<string, Float32Array>();

  constructor(private readonly max = 10_000) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * A vector for each name (one embedding call for those not cached); null when the offline model
   * switched from USE-lite to the transformer during the call (the vectors would not compare).
   */
  async vectors(embedder: Embedder, names: readonly string[]): Promise<Map<string, Float32Array> | null> {
    const model = embedder.modelId;
    const out = new Map<string, Float32Array>();
    const missing: string[] = [];
    for (const name of names) {
      const key = `${model}\u0000${name}`;
      const hit = this.entries.get(key);
      if (hit) {
        this.entries.delete(key);
        this.entries.set(key, hit);
        out.set(name, hit);
      } else missing.push(name);
    }
    if (missing.length === 0) return out;
    const fresh = await embedder.embed(missing.map(tagText));
    if (embedder.modelId !== model) return null;
    missing.forEach((name, i) => {
      out.set(name, fresh[i]!);
      this.entries.set(`${model}\u0000${name}`, fresh[i]!);
    });
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.max) break;
      this.entries.delete(key);
    }
    return out;
  }
}
