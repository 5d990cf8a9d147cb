import type { Calibration, Ranking } from '../ml/embedder.js';

/** Each part of a joined vector made unit length, its background mean taken out where the ranking gives one. */
export function rankingParts(vector: Float32Array, ranking: Ranking): Float32Array[] {
  let at = 0;
  return ranking.parts.map(({ dimensions, centre }) => {
    const part = vector.slice(at, (at += dimensions));
    scaleToUnit(part);
    if (centre) {
      for (let d = 0; d < dimensions; d++) part[d]! -= centre[d] ?? 0;
      scaleToUnit(part);
    }
    return part;
  });
}

function scaleToUnit(v: Float32Array): void {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let d = 0; d < v.length; d++) v[d]! /= norm;
}

/**
 * The ranking score of a stored row for a query (its `rankingParts`): each part's cosine times its
 * weight. The row may be the matrix's int8 components as they are: each part is compared by angle,
 * so no scale matters, and nothing is allocated per row.
 */
export function rankingScore(query: Float32Array[], row: ArrayLike<number>, ranking: Ranking): number {
  let score = 0;
  let at = 0;
  ranking.parts.forEach(({ dimensions, weight, centre }, i) => {
    const q = query[i]!;
    let qr = 0;
    let rr = 0;
    let cr = 0;
    let qc = 0;
    let cc = 0;
    for (let d = 0; d < dimensions; d++) {
      const r = row[at + d]!;
      qr += q[d]! * r;
      rr += r * r;
      if (centre) {
        const c = centre[d] ?? 0;
        cr += c * r;
        qc += q[d]! * c;
        cc += c * c;
      }
    }
    at += dimensions;
    if (rr === 0) return;
    const norm = Math.sqrt(rr);
    // With a centre: the row's unit part u, then (u − c) / |u − c|, against the query's centred part.
    const cosine = centre ? (qr / norm - qc) / Math.sqrt(Math.max(1e-12, 1 - (2 * cr) / norm + cc)) : qr / norm;
    score += weight * cosine;
  });
  return score;
}

/** A ranking score read as the model's cosine: the ranking's floor and `certain` land on the model's. */
export function onModelScale(score: number, calibration: Calibration, ranking: Ranking): number {
  const at = (score - ranking.floor) / (ranking.certain - ranking.floor);
  return calibration.floor + at * (calibration.certain - calibration.floor);
}
