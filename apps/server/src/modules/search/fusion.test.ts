import { describe, expect, it } from 'vitest';
import { combine, TEXT_FLOOR, textConfidence, UNRELATED_TEXT, vectorConfidence, WEAK_SHARE } from './fusion.js';

const calibration = { floor: 0.3, certain: 0.65 };

describe('confidence-weighted hybrid ranking', () => {
  it('puts what both rankings found first and keeps similarity in [0, 1]', () => {
    const fused = combine(
      ['a', 'b', 'c'],
      [
        { id: 'b', cosine: 0.5 },
        { id: 'd', cosine: 0.45 },
      ],
      calibration,
    );
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'c', 'd']);
    for (const f of fused) {
      expect(f.similarity).toBeGreaterThan(0);
      expect(f.similarity).toBeLessThanOrEqual(1);
    }
    expect(fused.find((f) => f.id === 'b')).toMatchObject({ inText: true, inVectors: true });
    expect(fused.find((f) => f.id === 'd')).toMatchObject({ inText: false, inVectors: true });
  });

  it('lets a weak neighbour in meaning rank below every text hit, and a certain one above all but the best', () => {
    const weak = combine(['t'], [{ id: 'v', cosine: 0.35 }], calibration);
    expect(weak.map((f) => f.id)).toEqual(['t', 'v']);
    const strong = combine(
      Array.from({ length: 30 }, (_, i) => `t${i}`),
      [{ id: 'v', cosine: 0.7 }],
      calibration,
    );
    expect(strong.map((f) => f.id).slice(0, 3)).toEqual(['t0', 'v', 't1']);
    expect(strong[1]?.similarity).toBeCloseTo(strong[0]?.similarity ?? 0, 12);
  });

  it('rescales cosines by the model calibration, so similarity reads the same across models', () => {
    expect(vectorConfidence(0.3, calibration)).toBe(0);
    expect(vectorConfidence(0.65, calibration)).toBe(1);
    expect(vectorConfidence(0.475, calibration)).toBeCloseTo(0.5, 12);
    expect(vectorConfidence(0.475, { floor: 0.15, certain: 0.8 })).toBeCloseTo(0.5, 12);
  });

  it('decays text confidence by rank without falling under its floor', () => {
    expect(textConfidence(0)).toBeCloseTo(0.9, 12);
    expect(textConfidence(1)).toBeLessThan(textConfidence(0));
    expect(textConfidence(10_000)).toBeGreaterThan(TEXT_FLOOR);
    expect(combine([], [], calibration)).toEqual([]);
  });

  it('weakens a text hit whose page is unrelated in meaning, so a sure match in meaning goes first', () => {
    const neighbour = [{ id: 'v', cosine: 0.6 }];
    expect(combine(['t'], neighbour, calibration).map((f) => f.id)).toEqual(['t', 'v']);
    const fused = combine(['t'], neighbour, calibration, new Set(['t']));
    expect(fused.map((f) => f.id)).toEqual(['v', 't']);
    expect(fused[1]?.similarity).toBeCloseTo(textConfidence(0) * UNRELATED_TEXT, 12);
    // Only the hits named: the others keep their confidence.
    expect(combine(['t', 'u'], [], calibration, new Set(['t'])).map((f) => f.id)).toEqual(['u', 't']);
  });

  it('leaves out a neighbour in meaning with no confidence, or far weaker than the best match', () => {
    // At the floor: the cosine let it through, but it is no surer than noise.
    expect(combine([], [{ id: 'floor', cosine: 0.3 }], calibration)).toEqual([]);
    const sure = { id: 'sure', cosine: 0.58 };
    const best = vectorConfidence(sure.cosine, calibration);
    const justAbove = 0.3 + 0.35 * best * WEAK_SHARE * 1.01;
    const justBelow = 0.3 + 0.35 * best * WEAK_SHARE * 0.99;
    const fused = combine(
      [],
      [sure, { id: 'weak', cosine: justAbove }, { id: 'noise', cosine: justBelow }],
      calibration,
    );
    expect(fused.map((f) => f.id)).toEqual(['sure', 'weak']);
    // Alone, the same weak neighbour is the best there is, and stays.
    expect(combine([], [{ id: 'noise', cosine: justBelow }], calibration).map((f) => f.id)).toEqual(['noise']);
    // A text hit is never left out: every word of the query is on its page.
    const withText = combine(['t'], [sure, { id: 'noise', cosine: justBelow }], calibration, new Set(['t']));
    expect(withText.map((f) => f.id)).toEqual(['sure', 't']);
  });
});
