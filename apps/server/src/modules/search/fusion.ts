/** Reciprocal-rank fusion constant: dampens the gap between rank 1 and rank 2 (Cormack et al., k=60). */
export const RRF_K = 60;

export interface Fused {
  id: string;
  /** In [0, 1]: 1 is first in every list that was fused. */
  similarity: number;
  inText: boolean;
  inVectors: boolean;
}

/** Equal scores: a link whose words matched goes before one found by meaning alone. */
export const textFirst = (a: Pick<Fused, 'inText'>, b: Pick<Fused, 'inText'>): number =>
  Number(b.inText) - Number(a.inText);

/**
 * Reciprocal-rank fusion of the text ranking and the vector ranking (ids best first). Each list adds
 * weight / (k + rank); the sum is divided by the best possible sum, so similarity is in [0, 1].
 * The first text hit and the first vector hit score the same: the text hit goes first (an exact
 * title whose link has no vector yet must not lose to a neighbour in meaning).
 */
export function fuse(text: string[], vectors: string[], weights = { text: 1, vectors: 1 }, k = RRF_K): Fused[] {
  const out = new Map<string, Fused & { score: number }>();
  const add = (ids: string[], weight: number, field: 'inText' | 'inVectors') => {
    ids.forEach((id, rank) => {
      const entry = out.get(id) ?? { id, similarity: 0, score: 0, inText: false, inVectors: false };
      entry.score += weight / (k + rank + 1);
      entry[field] = true;
      out.set(id, entry);
    });
  };
  add(text, weights.text, 'inText');
  add(vectors, weights.vectors, 'inVectors');
  const best = (text.length > 0 ? weights.text : 0) / (k + 1) + (vectors.length > 0 ? weights.vectors : 0) / (k + 1);
  return [...out.values()]
    .sort((a, b) => b.score - a.score || textFirst(a, b))
    .map(({ score, ...rest }) => ({ ...rest, similarity: best > 0 ? Math.min(1, score / best) : 0 }));
}
