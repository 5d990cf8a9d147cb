import { LRUCache } from 'lru-cache';
import { DOT_WASM } from './wasm/dot.wasm.js';

/** The part of the WebAssembly API used here (Node's type definitions for v20 do not declare it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (size: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

/** The SIMD dot-product kernel (wasm/dot.wat), compiled once per process. */
const DOT_MODULE = new wasm.Module(Buffer.from(DOT_WASM, 'base64'));

/**
 * One user's vectors for one model: L2-normalised rows inside a WebAssembly memory of their own
 * (rows padded with zeros to a multiple of 8 floats), the row's link and its creation time.
 */
export interface UserVectors {
  version: number;
  model: string;
  dims: number;
  ids: string[];
  /** Each row's link creation time, for the downgrade cutoff without a database round trip. */
  createdAt: Float64Array;
  /** Cosine of `query` (unit length, `dims` long) with every row; the array is reused by the next call. */
  scores: (query: Float32Array) => Float32Array;
  /** Bytes of the kernel memory holding the rows. */
  bytes: number;
}

export interface StoredVector {
  linkId: string;
  createdAt: number;
  bytes: Uint8Array;
}

export interface Hit {
  index: number;
  score: number;
}

/** Rough bytes of a cached entry: the matrix memory, the times and the id strings (2 bytes a character). */
export function sizeOf(v: UserVectors): number {
  return v.bytes + v.createdAt.byteLength + v.ids.length * (36 * 2 + 16) + 64;
}

/** Scales a vector to length 1 in place (so a dot product is the cosine); a zero vector stays zero. */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] ?? 0) * (v[i] ?? 0);
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
  return v;
}

const PAGE = 65536;

/**
 * Builds the matrix from stored rows: little-endian float32 bytes (the embeddings table format).
 * Rows of another length are skipped: they belong to a model being replaced. Memory layout: the
 * query (one row), the scores (one float a row), then the rows, each 16-byte aligned.
 */
export function buildVectors(version: number, model: string, dims: number, rows: StoredVector[]): UserVectors {
  const usable = rows.filter((r) => r.bytes.byteLength === dims * 4);
  const n = usable.length;
  const stride = Math.ceil(dims / 8) * 8;
  const scoresAt = stride * 4;
  const matrixAt = Math.ceil((scoresAt + n * 4) / 16) * 16;
  const total = matrixAt + n * stride * 4;
  const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(total / PAGE)) });
  const { exports } = new wasm.Instance(DOT_MODULE, { env: { memory } });
  const kernel = exports.scores as (matrix: number, query: number, rows: number, stride: number, out: number) => void;
  // The memory never grows, so these views stay valid.
  const query = new Float32Array(memory.buffer, 0, stride);
  const scores = new Float32Array(memory.buffer, scoresAt, n);
  const matrix = new Float32Array(memory.buffer, matrixAt, n * stride);
  const createdAt = new Float64Array(n);
  const ids: string[] = new Array<string>(n);
  const vector = new Float32Array(dims);
  usable.forEach((row, i) => {
    // Read through a DataView: driver buffers need not be 4-byte aligned.
    const view = new DataView(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
    for (let d = 0; d < dims; d++) vector[d] = view.getFloat32(d * 4, true);
    matrix.set(normalize(vector), i * stride);
    createdAt[i] = row.createdAt;
    ids[i] = row.linkId;
  });
  return {
    version,
    model,
    dims,
    ids,
    createdAt,
    bytes: memory.buffer.byteLength,
    scores: (q) => {
      query.set(q.subarray(0, dims));
      kernel(matrixAt, 0, n, stride, scoresAt);
      return scores;
    },
  };
}

/** A vector as stored in the embeddings table: little-endian float32 bytes. */
export function vectorBytes(vector: Float32Array): Uint8Array {
  const out = new Uint8Array(vector.length * 4);
  const view = new DataView(out.buffer);
  vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return out;
}

/**
 * Exact top-k by cosine: the kernel scores every row (SIMD), then one pass keeps the best k in a
 * small sorted array. Rows `accept` rejects (links hidden by a downgrade) never enter.
 */
export function topK(
  vectors: UserVectors,
  query: Float32Array,
  k: number,
  minScore: number,
  accept: (index: number) => boolean = () => true,
): Hit[] {
  if (vectors.ids.length === 0) return [];
  const scores = vectors.scores(query);
  const best: Hit[] = [];
  let floor = minScore;
  for (let r = 0; r < scores.length; r++) {
    const score = scores[r]!;
    if (score < floor || (best.length === k && score === floor) || !accept(r)) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < score) at--;
    best.splice(at, 0, { index: r, score });
    if (best.length > k) best.pop();
    if (best.length === k) floor = best[k - 1]!.score;
  }
  return best;
}

/**
 * Per-user vectors in memory, least recently used dropped first, bounded by bytes. An entry is good
 * while the user's `search_version` (moved by database triggers on every vector change and link
 * deletion, whichever instance or job made it) still matches; otherwise it is loaded again.
 */
export class VectorCache {
  private readonly entries: LRUCache<string, { version: number; model: string; vectors: UserVectors }>;
  private readonly loading = new Map<string, Promise<UserVectors>>();

  constructor(maxBytes: number) {
    this.entries = new LRUCache({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (e) => Math.max(1, sizeOf(e.vectors)),
    });
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  async get(userId: string, version: number, model: string, load: () => Promise<UserVectors>): Promise<UserVectors> {
    const cached = this.entries.get(userId);
    if (cached && cached.version === version && cached.model === model) return cached.vectors;
    const key = `${userId}\u0000${version}\u0000${model}`;
    let pending = this.loading.get(key);
    if (!pending) {
      // Concurrent searches of one user share one load.
      pending = load().finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    const vectors = await pending;
    // An entry larger than the whole budget is used once and not kept.
    this.entries.set(userId, { version, model, vectors });
    return vectors;
  }

  /** Drops a user's entry at once (this instance's own writes). */
  invalidate(userId: string): void {
    this.entries.delete(userId);
  }
}
