import type { Embedder } from './embedder.js';
import { ALL_MINILM_L6_V2, MINILM_BGE_USE_MULTILINGUAL, MINILM_USE_MULTILINGUAL } from './local-models.js';
import { USE_LITE_MODEL_ID } from './use-lite.constants.js';

// Tag vectors of the offline models, shared by the tag manager's merge suggestions (links) and
// analysis, which prefers a user's existing tag that means the same as a proposed one.

/**
 * Per model, the cosine from which two tags are suggested as one meaning: just above the closest
 * related-but-different pair of bench/tag-pairs.json (decision 0014). A model not listed here
 * (a remote one) gets no meaning suggestions rather than an uncalibrated guess.
 */
export const MEANING_THRESHOLDS: Readonly<Record<string, number>> = {
  [USE_LITE_MODEL_ID]: 0.7,
  [ALL_MINILM_L6_V2.id]: 0.8,
  [MINILM_USE_MULTILINGUAL.id]: 0.8,
  [MINILM_BGE_USE_MULTILINGUAL.id]: 0.81,
};

/**
 * Per model, the cosine from which an existing tag that abbreviates a proposed one (js, javascript)
 * is preferred: these models place abbreviations just below the meaning threshold. Just above the
 * model's highest abbreviation-shaped pair that does not mean the same (bench:tags; decisions 0016,
 * 0020); 0.67, measured on MiniLM, for the others.
 */
const ABBREVIATION_FLOOR = 0.67;
const ABBREVIATION_FLOORS: Readonly<Record<string, number>> = { [MINILM_BGE_USE_MULTILINGUAL.id]: 0.64 };
export const abbreviationFloor = (modelId: string): number => ABBREVIATION_FLOORS[modelId] ?? ABBREVIATION_FLOOR;

/** What a tag's vector is made of: its words, so "machine-learning" reads as "machine learning". */
export function tagText(name: string): string {
  return name.replace(/[-_./]+/g, ' ').trim();
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
