import type { TagMergeSuggestion, TagSummary } from '@linkwise/contract';
import { keeper, spellingKey } from './tag-suggestions.js';

/** The most used tags compared by meaning: pairing is quadratic, so thousands of rare tags are left out. */
export const TAG_MEANING_CAP = 500;

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
