import { describe, expect, it } from 'vitest';
import { compile } from './wasm/compile.mjs';
import { DOT_WASM } from './wasm/dot.wasm.js';
import { normalize } from '../ml/embedder.js';
import { vectorBytes } from '../embeddings/vector-bytes.js';
import { buildVectors, sizeOf, topK, VectorCache, type UserVectors } from './vector-index.js';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomRows(n: number, dims: number, seed: number): Float32Array[] {
  const next = rng(seed);
  return Array.from({ length: n }, () => Float32Array.from({ length: dims }, () => next() * 2 - 1));
}

function toVectors(rows: Float32Array[], dims: number): UserVectors {
  return buildVectors(
    1,
    'model',
    dims,
    rows.map((r, i) => ({ linkId: `link-${i}`, createdAt: 1000 + i, bytes: vectorBytes(r) })),
  );
}

const randomVectors = (n: number, dims: number, seed: number) => toVectors(randomRows(n, dims, seed), dims);

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('vector index', () => {
  it('ships the kernel compiled from its source', async () => {
    expect(await compile()).toBe(DOT_WASM);
  });

  it('normalises to unit length and leaves a zero vector alone', () => {
    const v = normalize(Float32Array.from([3, 4]));
    expect([...v]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect([...normalize(new Float32Array(3))]).toEqual([0, 0, 0]);
  });

  it('reads little-endian float32 bytes and skips rows of another dimension', () => {
    const good = vectorBytes(Float32Array.from([0, 2, 0]));
    // An odd offset: driver buffers need not be aligned.
    const shifted = new Uint8Array(good.length + 1);
    shifted.set(good, 1);
    const v = buildVectors(7, 'm', 3, [
      { linkId: 'a', createdAt: 5, bytes: shifted.subarray(1) },
      { linkId: 'b', createdAt: 6, bytes: vectorBytes(Float32Array.from([1, 1])) },
    ]);
    expect(v.ids).toEqual(['a']);
    expect([...v.scores(Float32Array.from([0, 1, 0]))]).toEqual([1]);
    expect([...v.createdAt]).toEqual([5]);
    expect(v.version).toBe(7);
  });

  it('scores every row within the int8 quantisation error of the exact cosine', () => {
    const dims = 896; // the joined offline model's size
    const rows = randomRows(500, dims, 3);
    const vectors = toVectors(rows, dims);
    const unit = rows.map((r) => normalize(Float32Array.from(r)));
    const next = rng(11);
    let worst = 0;
    for (let trial = 0; trial < 5; trial++) {
      const query = normalize(Float32Array.from({ length: dims }, () => next() * 2 - 1));
      const scores = vectors.scores(query);
      unit.forEach((row, i) => (worst = Math.max(worst, Math.abs((scores[i] ?? 0) - dot(row, query)))));
    }
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(0.005);
  });

  it('finds the top k by cosine, best first (same as sorting every score)', () => {
    const dims = 37; // not a multiple of 16: rows are padded for the SIMD kernel
    const rows = randomRows(2000, dims, 42);
    const vectors = toVectors(rows, dims);
    const unit = rows.map((r) => normalize(Float32Array.from(r)));
    const next = rng(7);
    for (let trial = 0; trial < 5; trial++) {
      const query = normalize(Float32Array.from({ length: dims }, () => next() * 2 - 1));
      const all = unit.map((row, i) => ({ index: i, score: dot(row, query) })).sort((a, b) => b.score - a.score);
      const hits = topK(vectors, query, 10, -1);
      // Exact up to the quantisation error: only rows within it of the 10th best may trade places.
      const tenth = all[9]!.score;
      const exact = new Map(all.map((a) => [a.index, a.score]));
      expect(hits).toHaveLength(10);
      hits.forEach((h, i) => {
        expect(h.score).toBeLessThanOrEqual(hits[i - 1]?.score ?? Infinity);
        expect(h.score).toBeCloseTo(exact.get(h.index) ?? 0, 2);
        expect(exact.get(h.index)).toBeGreaterThan(tenth - 0.01);
      });
      const found = new Set(hits.map((h) => h.index));
      for (const sure of all.filter((a) => a.score > tenth + 0.01)) expect(found.has(sure.index)).toBe(true);
    }
  });

  it('drops scores under the minimum and rows the filter rejects', () => {
    const vectors = buildVectors(1, 'm', 2, [
      { linkId: 'x', createdAt: 1, bytes: vectorBytes(Float32Array.from([1, 0])) },
      { linkId: 'y', createdAt: 2, bytes: vectorBytes(Float32Array.from([0.8, 0.6])) },
      { linkId: 'z', createdAt: 3, bytes: vectorBytes(Float32Array.from([0, 1])) },
    ]);
    const query = Float32Array.from([1, 0]);
    expect(topK(vectors, query, 5, 0.5).map((h) => vectors.ids[h.index])).toEqual(['x', 'y']);
    expect(topK(vectors, query, 5, 0.5, (i) => i !== 0).map((h) => vectors.ids[h.index])).toEqual(['y']);
    expect(topK(vectors, query, 1, -1).map((h) => vectors.ids[h.index])).toEqual(['x']);
  });

  describe('cache', () => {
    const load = (version: number, n: number) => () => Promise.resolve({ ...randomVectors(n, 8, n), version });

    it('reuses an entry while the version holds and reloads when it moves', async () => {
      const cache = new VectorCache(10_000_000);
      let loads = 0;
      const counted = (version: number) => () => {
        loads++;
        return load(version, 10)();
      };
      const first = await cache.get('u1', 1, 'm', counted(1));
      expect(await cache.get('u1', 1, 'm', counted(1))).toBe(first);
      expect(loads).toBe(1);
      const second = await cache.get('u1', 2, 'm', counted(2));
      expect(second).not.toBe(first);
      expect(loads).toBe(2);
      // Another model (provider switched) is another entry.
      await cache.get('u1', 2, 'other', counted(2));
      expect(loads).toBe(3);
    });

    it('hands a load the stale entry of the same model, and runs one load at a time per user', async () => {
      const cache = new VectorCache(10_000_000);
      const first = await cache.get('u', 1, 'm', load(1, 4));
      const seen: (UserVectors | null)[] = [];
      let running = 0;
      let overlapped = false;
      const patching = (stale: UserVectors | null) => {
        seen.push(stale);
        overlapped ||= running > 0;
        running++;
        return new Promise<UserVectors>((resolve) =>
          setTimeout(() => {
            running--;
            resolve(stale ?? randomVectors(4, 8, 4));
          }, 10),
        );
      };
      const [a, b] = await Promise.all([cache.get('u', 2, 'm', patching), cache.get('u', 3, 'm', patching)]);
      expect(overlapped).toBe(false);
      expect(seen).toEqual([first, first]);
      expect([a, b]).toEqual([first, first]);
      // An entry newer than asked for is good (the version only moves forward).
      expect(await cache.get('u', 2, 'm', patching)).toBe(first);
      expect(seen).toHaveLength(2);
      await cache.get('u', 4, 'other', patching);
      expect(seen[2]).toBe(null);
    });

    it('patches rows in place: set, add, remove, reuse', () => {
      const bytes = (v: number[]) => vectorBytes(Float32Array.from(v));
      const v = buildVectors(1, 'm', 3, [
        { linkId: 'a', createdAt: 1, bytes: bytes([1, 0, 0]) },
        { linkId: 'b', createdAt: 2, bytes: bytes([0, 1, 0]) },
      ]);
      const best = (q: number[], min = 0.5) => topK(v, Float32Array.from(q), 10, min).map((h) => v.ids[h.index]);
      v.patch(
        [
          { linkId: 'a', createdAt: 1, bytes: bytes([0, 0, 3]) },
          { linkId: 'c', createdAt: 3, bytes: bytes([0, 1, 0]) },
          { linkId: 'b', createdAt: 0, bytes: null },
          { linkId: 'gone', createdAt: 0, bytes: null },
          { linkId: 'other-model', createdAt: 0, bytes: bytes([1, 0]) },
        ],
        2,
      );
      expect([v.version, v.live]).toEqual([2, 2]);
      expect(best([0, 0, 1])).toEqual(['a']);
      expect(best([0, 1, 0])).toEqual(['c']);
      expect(best([1, 1, 1], -1).sort()).toEqual(['a', 'c']);
      expect(v.createdAt[v.ids.indexOf('c')]).toBe(3);
      // The freed row is taken before the matrix grows; then it grows past its rows.
      v.patch([{ linkId: 'd', createdAt: 4, bytes: bytes([1, 0, 0]) }], 3);
      expect(v.ids).toHaveLength(3);
      const many = Array.from({ length: 100 }, (_, i) => ({
        linkId: `n${i}`,
        createdAt: 10 + i,
        bytes: bytes([1, 1, 0]),
      }));
      v.patch(many, 4);
      expect(v.live).toBe(103);
      expect(best([1, 0, 0])).toHaveLength(10);
      expect(topK(v, Float32Array.from([0, 0, 1]), 1, 0.5).map((h) => v.ids[h.index])).toEqual(['a']);
      expect(v.createdAt[v.ids.indexOf('n99')]).toBe(109);
      expect(v.createdAt[v.ids.indexOf('d')]).toBe(4);
      // Each link's row, as patched: a removed link has none, a new one the row it took.
      for (const id of ['a', 'c', 'd', 'n0', 'n99']) expect(v.rowOf(id)).toBe(v.ids.indexOf(id));
      expect([v.rowOf('b'), v.rowOf('gone')]).toEqual([undefined, undefined]);
    });

    it('finds a link’s row before any patch, and forgets a removed one', () => {
      const v = randomVectors(50, 8, 3);
      expect(v.rowOf('link-37')).toBe(37);
      v.patch([{ linkId: 'link-37', createdAt: 0, bytes: null }], 2);
      expect(v.rowOf('link-37')).toBeUndefined();
    });

    it('shares one load between concurrent searches of a user', async () => {
      const cache = new VectorCache(10_000_000);
      let loads = 0;
      const slow = () => {
        loads++;
        return new Promise<UserVectors>((resolve) => setTimeout(() => resolve(randomVectors(5, 4, 1)), 20));
      };
      const [a, b] = await Promise.all([cache.get('u', 1, 'm', slow), cache.get('u', 1, 'm', slow)]);
      expect(a).toBe(b);
      expect(loads).toBe(1);
    });

    it('stays within its byte budget, dropping the least recently used user', async () => {
      const one = sizeOf(randomVectors(100, 8, 100));
      const cache = new VectorCache(one * 2 + 10);
      await cache.get('a', 1, 'm', load(1, 100));
      await cache.get('b', 1, 'm', load(1, 100));
      await cache.get('a', 1, 'm', load(1, 100)); // a is now the most recent
      await cache.get('c', 1, 'm', load(1, 100));
      expect(cache.bytes).toBeLessThanOrEqual(one * 2 + 10);
      let reloaded = '';
      for (const user of ['a', 'c', 'b']) {
        await cache.get(user, 1, 'm', () => {
          reloaded += user;
          return load(1, 100)();
        });
      }
      expect(reloaded).toBe('b');
    });

    it('answers an entry larger than the budget without keeping it', async () => {
      const cache = new VectorCache(100);
      const v = await cache.get('big', 1, 'm', load(1, 50));
      expect(v.ids).toHaveLength(50);
      expect(cache.bytes).toBe(0);
    });

    it('holds an empty matrix for a user without vectors', () => {
      const empty = buildVectors(1, 'm', 512, []);
      expect(topK(empty, new Float32Array(512), 5, -1)).toEqual([]);
    });
  });
});
