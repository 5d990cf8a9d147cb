import type { Calibration } from '../ml/embedder.js';

export interface Fused {
  id: string;
  /** In [0, 1], the same scale for every user and model: how sure the match is. */
  similarity: number;
  inText: boolean;
  inVectors: boolean;
}

/** Equal scores: a link whose words matched goes before one found by meaning alone. */
export const textFirst = (a: Pick<Fused, 'inText'>, b: Pick<Fused, 'inText'>): number =>
  Number(b.inText) - Number(a.inText);

/**
 * Confidence of a text hit by its rank: every query word matched (the index ANDs them), so the
 * first is nearly certain; later ones decay gently and never fall below TEXT_FLOOR.
 */
export const TEXT_FLOOR = 0.5;
const TEXT_TOP = 0.9;
const TEXT_DECAY = 10;
/** A text hit's confidence kept when its page's own vector is below the floor for the query. */
export const UNRELATED_TEXT = 0.6;
export const textConfidence = (rank: number): number =>
  TEXT_FLOOR + ((TEXT_TOP - TEXT_FLOOR) * TEXT_DECAY) / (TEXT_DECAY + rank);

/** A cosine rescaled by its model's calibration: 0 at the floor, 1 at `certain`. */
export const vectorConfidence = (cosine: number, calibration: Calibration): number =>
  Math.min(1, Math.max(0, (cosine - calibration.floor) / (calibration.certain - calibration.floor)));

/**
 * A link found by meaning alone is left out below this share of the best match's similarity: next
 * to a sure match, a neighbour an order of magnitude weaker is noise trailing the list.
 */
export const WEAK_SHARE = 0.1;

/**
 * Hybrid ranking weighted by confidence: the text ranking (ids best first) and the vector neighbours
 * (cosines at or above the model's floor, the caller's job) each say how sure they are, and a link
 * found by both is surer than by either: similarity = 1 − (1 − text)(1 − vector). A weak neighbour
 * in meaning cannot outrank a link whose every word matched; a strong one can, except the best
 * text match: meaning alone is capped at its confidence and loses the tie (a link whose analysis is
 * still pending has no vector, and its exact title must still come first). A text hit whose page
 * the model places below its floor for the query (`unrelated`: every word there, scattered through
 * a long text) keeps UNRELATED_TEXT of its confidence, so a certain match in meaning goes first.
 * A link found by meaning alone needs some confidence: none (its ranking puts it at the model's floor,
 * decision 0022) or under WEAK_SHARE of the best match's is no match.
 */
export function combine(
  text: string[],
  vectors: { id: string; cosine: number; calibration?: Calibration }[],
  calibration: Calibration,
  unrelated: ReadonlySet<string> = new Set(),
): Fused[] {
  const out = new Map<string, Fused & { t: number; v: number }>();
  const entry = (id: string) => {
    let e = out.get(id);
    if (!e) out.set(id, (e = { id, similarity: 0, inText: false, inVectors: false, t: 0, v: 0 }));
    return e;
  };
  text.forEach((id, rank) => {
    const e = entry(id);
    e.inText = true;
    // Words found on a page whose meaning is far from the query (`unrelated`) are weaker evidence.
    e.t = Math.max(e.t, textConfidence(rank) * (unrelated.has(id) ? UNRELATED_TEXT : 1));
  });
  // A hit may carry its own model's calibration (links of two models during a re-embedding run).
  for (const { id, cosine, calibration: own } of vectors) {
    const e = entry(id);
    e.inVectors = true;
    e.v = Math.max(e.v, vectorConfidence(cosine, own ?? calibration));
  }
  const fused = [...out.values()]
    .map(({ t, v, ...rest }) => ({ ...rest, similarity: rest.inText ? 1 - (1 - t) * (1 - v) : Math.min(v, TEXT_TOP) }))
    .sort((a, b) => b.similarity - a.similarity || textFirst(a, b));
  const weak = (fused[0]?.similarity ?? 0) * WEAK_SHARE;
  return fused.filter((f) => f.inText || (f.similarity > 0 && f.similarity >= weak));
}
