import { describe, expect, it } from 'vitest';
import type { Calibration, Ranking } from '../ml/embedder.js';
import { vectorBytes } from '../embeddings/vector-bytes.js';
import { onModelScale, rankingParts, rankingScore } from './ranking.js';
import { buildVectors } from './vector-index.js';
import { CANDIDATE_MODELS, LOCAL_MODELS } from '../ml/local-models.js';

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / n);
};
/** Two unit parts joined with shares: the joined cosine is the sum of each part's cosine times its share. */
const joined = (a: Float32Array, b: Float32Array, share = 0.5) =>
  Float32Array.from([...a.map((x) => x * Math.sqrt(1 - share)), ...b.map((x) => x * Math.sqrt(share))]);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('ranking of the neighbours a joined model lets through', () => {
  it('cuts a joined vector into unit parts and takes a part’s background mean out', () => {
    const ranking: Ranking = {
      parts: [
        { dimensions: 2, weight: 0.5 },
        { dimensions: 2, weight: 0.5, centre: [0.6, 0] },
      ],
      floor: 0,
      certain: 1,
    };
    const [a, b] = rankingParts(joined(unit(3, 4), unit(1, 1), 0.2), ranking);
    expect([...a!].map((x) => +x.toFixed(5))).toEqual([0.6, 0.8]);
    // (0.7071 − 0.6, 0.7071) made unit length: the shared direction no longer counts.
    const b0 = Math.SQRT1_2 - 0.6;
    const n = Math.hypot(b0, Math.SQRT1_2);
    expect([...b!].map((x) => +x.toFixed(5))).toEqual([+(b0 / n).toFixed(5), +(Math.SQRT1_2 / n).toFixed(5)]);
  });

  it('orders by the weighed parts, not by the joined cosine', () => {
    // Part one says "near", part two "far"; the joined cosine (shares 0.8 / 0.2) follows part one,
    // a ranking that weighs part two more follows part two.
    const query = joined(unit(1, 0), unit(1, 0), 0.2);
    const first = joined(unit(1, 0), unit(0, 1), 0.2);
    const second = joined(unit(1, 1), unit(1, 0.1), 0.2);
    expect(dot(query, first)).toBeGreaterThan(dot(query, second));
    const ranking: Ranking = {
      parts: [
        { dimensions: 2, weight: 0.3 },
        { dimensions: 2, weight: 0.7 },
      ],
      floor: 0,
      certain: 1,
    };
    const q = rankingParts(query, ranking);
    expect(rankingScore(q, second, ranking)).toBeGreaterThan(rankingScore(q, first, ranking));
    expect(rankingScore(q, query, ranking)).toBeCloseTo(1, 6);
  });

  it('scores a stored (int8) row as it is, within the quantisation steps of the exact vector', () => {
    const ranking: Ranking = {
      parts: [
        { dimensions: 2, weight: 0.4 },
        { dimensions: 3, weight: 0.6, centre: [0.1, 0.2, 0.3] },
      ],
      floor: 0,
      certain: 1,
    };
    const row = Float32Array.from([0.3, -0.5, 0.2, 0.7, -0.1]);
    const vectors = buildVectors(1, 'm', 5, [{ linkId: 'a', createdAt: 1, bytes: vectorBytes(row) }]);
    const stored = vectors.row(0);
    const norm = Math.hypot(...row);
    const scale = Math.hypot(...stored);
    stored.forEach((x, d) => expect(x / scale).toBeCloseTo(row[d]! / norm, 2));
    const q = rankingParts(unit(1, 0, 0, 1, 1), ranking);
    expect(rankingScore(q, stored, ranking)).toBeCloseTo(rankingScore(q, row, ranking), 2);
    vectors.patch([{ linkId: 'a', createdAt: 1, bytes: null }], 2);
    expect([...vectors.row(0)]).toEqual([0, 0, 0, 0, 0]);
  });

  it('reads a ranking score on the model’s scale: its floor and certain land on the model’s', () => {
    const calibration: Calibration = { floor: 0.17, certain: 0.45 };
    const ranking: Ranking = { parts: [], floor: 0.13, certain: 0.45 };
    expect(onModelScale(0.13, calibration, ranking)).toBeCloseTo(0.17, 10);
    expect(onModelScale(0.45, calibration, ranking)).toBeCloseTo(0.45, 10);
    expect(onModelScale(0.29, calibration, ranking)).toBeCloseTo(0.31, 10);
  });

  it('fits every model that has one: its parts cover the vector, weights add up to 1, centres their part', () => {
    const ranked = Object.values({ ...LOCAL_MODELS, ...CANDIDATE_MODELS }).filter((m) => m.calibration.ranking);
    expect(ranked.map((m) => m.id)).toContain('minilm-bge-usem3-q8');
    for (const { dimensions, calibration } of ranked) {
      const { parts, floor, certain } = calibration.ranking!;
      expect(parts.reduce((n, p) => n + p.dimensions, 0)).toBe(dimensions);
      expect(parts.reduce((n, p) => n + p.weight, 0)).toBeCloseTo(1, 10);
      for (const p of parts) if (p.centre) expect(p.centre.length).toBe(p.dimensions);
      expect(certain).toBeGreaterThan(floor);
    }
  });
});
