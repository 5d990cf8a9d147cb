import { describe, expect, it } from 'vitest';
import { fuse, RRF_K } from './fusion.js';

describe('reciprocal-rank fusion', () => {
  it('puts what both rankings agree on first and keeps similarity in [0, 1]', () => {
    const fused = fuse(['a', 'b', 'c'], ['b', 'd', 'a']);
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c']);
    for (const f of fused) {
      expect(f.similarity).toBeGreaterThan(0);
      expect(f.similarity).toBeLessThanOrEqual(1);
    }
    expect(fused.find((f) => f.id === 'b')).toMatchObject({ inText: true, inVectors: true });
    expect(fused.find((f) => f.id === 'd')).toMatchObject({ inText: false, inVectors: true });
    expect(fused.find((f) => f.id === 'c')).toMatchObject({ inText: true, inVectors: false });
  });

  it('gives 1 to the first of a single ranking, then decays by rank', () => {
    const fused = fuse(['a', 'b'], []);
    expect(fused[0]?.similarity).toBe(1);
    expect(fused[1]?.similarity).toBeCloseTo((RRF_K + 1) / (RRF_K + 2), 12);
    expect(fuse([], ['x'])[0]).toMatchObject({ id: 'x', similarity: 1, inVectors: true });
    expect(fuse([], [])).toEqual([]);
  });

  it('puts a text hit before a vector hit of the same score', () => {
    expect(fuse(['t'], ['v']).map((f) => f.id)).toEqual(['t', 'v']);
    expect(fuse(['t2', 't'], ['v', 'x']).map((f) => f.id)).toEqual(['t2', 'v', 't', 'x']);
  });

  it('weights one ranking over the other', () => {
    const fused = fuse(['t'], ['v'], { text: 2, vectors: 1 });
    expect(fused.map((f) => f.id)).toEqual(['t', 'v']);
  });
});
