import { LRUCache } from 'lru-cache';
import { DOT_WASM } from './wasm/dot.wasm.js';

/** The part of the WebAssembly API used here (Node's type definitions for v20 do not declare it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (size: { initial: number }) => { buffer: ArrayBuffer; grow: (pages: number) => number };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

/** The SIMD dot-product kernel (wasm/dot.wat), compiled once per process. */
const DOT_MODULE = new wasm.Module(Buffer.from(DOT_WASM, 'base64'));

/**
 * One user's vectors for one model: L2-normalised rows inside a WebAssembly memory of their own,
 * quantised to int8 with a scale per row (a quarter of float32's memory and reads; cosines within
 * about 0.005 of the exact ones), padded with zeros to a multiple of 16, the row's link and its
 * creation time.
 * `patch` brings it up to date in place from the links whose vector changed; a removed row keeps
 * its place with an empty id (and zeros) until a new vector takes it.
 */
export interface UserVectors {
  version: number;
  model: string;
  dims: number;
  /** Each row's link; '' for a removed row. */
  ids: string[];
  /** Each row's link creation time, for the downgrade cutoff without a database round trip. */
  createdAt: Float64Array;
  /** Rows holding a vector (`ids` minus removed rows). */
  live: number;
  /** Cosine of `query` (unit length, `dims` long) with every row; the array is reused by the next call. */
  scores: (query: Float32Array) => Float32Array;
  /**
   * One row's stored components (int8, the row's scale left out: its direction only), a view that
   * the next change of the matrix may overwrite; a removed row is zeros.
   */
  row: (index: number) => Int8Array;
  /** The row of a link, if it has one (the index is built on first use and kept up to date by `patch`). */
  rowOf: (linkId: string) => number | undefined;
  /** Sets, adds or removes (bytes null, or of another length) the given links' rows, and takes `version`. */
  patch: (changes: VectorChange[], version: number) => void;
  /** Bytes of the kernel memory holding the rows, and of their scales. */
  bytes: number;
}

export interface StoredVector {
  linkId: string;
  createdAt: number;
  bytes: Uint8Array;
}

/** A link whose vector changed since a cached matrix was built: its vector now, or null when it has none. */
export interface VectorChange {
  linkId: string;
  createdAt: number;
  bytes: Uint8Array | null;
}

export interface Hit {
  index: number;
  score: number;
}

function maxAbs(v: Float32Array): number {
  let max = 0;
  for (const x of v) if (Math.abs(x) > max) max = Math.abs(x);
  return max;
}

/** Rough bytes of a cached entry: the matrix memory, the times and the id strings (2 bytes a character). */
export function sizeOf(v: UserVectors): number {
  return v.bytes + v.createdAt.byteLength + v.ids.length * (36 * 2 + 16) + 64;
}

const PAGE = 65536;

/** Stored vectors are little-endian float32: read in place on such a host, through a DataView elsewhere. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** The largest magnitude of an int8 row component and of an int16 query component. */
const ROW_MAX = 127;
const QUERY_MAX = 32767;

/**
 * Builds the matrix from stored rows: little-endian float32 bytes (the embeddings table format).
 * Rows of another length are skipped: they belong to a model being replaced. Memory layout: the
 * query (one row of int16), the rows (int8, each 16-byte aligned), then the scores (one float a
 * row). A full build holds exactly its rows; rows added later grow the memory by a sixteenth at
 * least (the rows stay in place, the scores move past them). Each row's scale lives beside, in JS.
 */
export function buildVectors(version: number, model: string, dims: number, rows: StoredVector[]): UserVectors {
  const usable = rows.filter((r) => r.bytes.byteLength === dims * 4);
  const stride = Math.ceil(dims / 16) * 16;
  const matrixAt = stride * 2;
  let n = usable.length;
  let capacity = n;
  const layout = (cap: number) => ({
    scoresAt: matrixAt + cap * stride,
    total: matrixAt + cap * stride + cap * 4,
  });
  const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(layout(capacity).total / PAGE)) });
  const { exports } = new wasm.Instance(DOT_MODULE, { env: { memory } });
  const kernel = exports.scores as (matrix: number, query: number, rows: number, stride: number, out: number) => void;
  // Views over the memory; made again when it grows (growing detaches the old buffer).
  let query = new Int16Array(memory.buffer, 0, stride);
  let matrix = new Int8Array(memory.buffer, matrixAt, capacity * stride);
  let scales = new Float32Array(capacity);
  const free: number[] = [];
  let rowIndex: Map<string, number> | null = null;
  const index = () => {
    if (!rowIndex) {
      rowIndex = new Map();
      self.ids.forEach((id, i) => id && rowIndex!.set(id, i));
    }
    return rowIndex;
  };
  const vector = new Float32Array(dims);

  const vectorBytes = new Uint8Array(vector.buffer);
  const write = (row: number, bytes: Uint8Array) => {
    if (LITTLE_ENDIAN) {
      // A copy into an aligned buffer: driver buffers need not be 4-byte aligned.
      vectorBytes.set(bytes.subarray(0, dims * 4));
    } else {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let d = 0; d < dims; d++) vector[d] = view.getFloat32(d * 4, true);
    }
    let squares = 0;
    let max = 0;
    for (let d = 0; d < dims; d++) {
      const x = vector[d]!;
      squares += x * x;
      if (Math.abs(x) > max) max = Math.abs(x);
    }
    const at = row * stride;
    // The unit vector's components in steps of its largest over ROW_MAX (a zero vector stays zeros).
    const norm = Math.sqrt(squares);
    const step = max > 0 && norm > 0 ? ROW_MAX / max : 0;
    for (let d = 0; d < dims; d++) matrix[at + d] = Math.round(vector[d]! * step);
    scales[row] = step > 0 ? max / norm / ROW_MAX : 0;
  };
  const grow = (rowsNeeded: number) => {
    capacity = Math.max(rowsNeeded, capacity + Math.max(64, Math.ceil(capacity / 16)));
    const pages = Math.ceil(layout(capacity).total / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
    query = new Int16Array(memory.buffer, 0, stride);
    matrix = new Int8Array(memory.buffer, matrixAt, capacity * stride);
    const grown = new Float32Array(capacity);
    grown.set(scales.subarray(0, n));
    scales = grown;
    const times = new Float64Array(capacity);
    times.set(self.createdAt.subarray(0, n));
    self.createdAt = times;
    self.bytes = memory.buffer.byteLength + scales.byteLength;
  };

  const self: UserVectors = {
    version,
    model,
    dims,
    ids: new Array<string>(n),
    createdAt: new Float64Array(n),
    live: n,
    bytes: memory.buffer.byteLength + scales.byteLength,
    scores: (q) => {
      const qScale = maxAbs(q.subarray(0, dims)) / QUERY_MAX;
      for (let d = 0; d < dims; d++) query[d] = qScale > 0 ? Math.round(q[d]! / qScale) : 0;
      const { scoresAt } = layout(capacity);
      kernel(matrixAt, 0, n, stride, scoresAt);
      const out = new Float32Array(memory.buffer, scoresAt, n);
      for (let r = 0; r < n; r++) out[r] = out[r]! * scales[r]! * qScale;
      return out;
    },
    row: (index) => matrix.subarray(index * stride, index * stride + dims),
    rowOf: (linkId) => index().get(linkId),
    patch: (changes, next) => {
      const rowOf = index();
      for (const change of changes) {
        let row = rowOf.get(change.linkId);
        if (!change.bytes || change.bytes.byteLength !== dims * 4) {
          if (row === undefined) continue;
          // Zeros score 0 (below any useful floor); topK skips a removed row whatever its floor.
          matrix.fill(0, row * stride, (row + 1) * stride);
          scales[row] = 0;
          self.ids[row] = '';
          rowOf.delete(change.linkId);
          free.push(row);
          self.live--;
          continue;
        }
        if (row === undefined) {
          row = free.pop();
          if (row === undefined) {
            if (n === capacity) grow(n + 1);
            row = n++;
          }
          rowOf.set(change.linkId, row);
          self.ids[row] = change.linkId;
          self.live++;
        }
        write(row, change.bytes);
        self.createdAt[row] = change.createdAt;
      }
      self.version = next;
    },
  };
  usable.forEach((row, i) => {
    write(i, row.bytes);
    self.createdAt[i] = row.createdAt;
    self.ids[i] = row.linkId;
  });
  return self;
}

/**
 * Exact top-k by cosine: the kernel scores every row (SIMD), then one pass keeps the best k in a
 * small sorted array. Removed rows and rows `accept` rejects (links hidden by a downgrade) never enter.
 */
export function topK(
  vectors: UserVectors,
  query: Float32Array,
  k: number,
  minScore: number,
  accept: (index: number) => boolean = () => true,
): Hit[] {
  if (vectors.ids.length === 0) return [];
  return topOf(vectors, vectors.scores(query), k, minScore, accept);
}

/** `topK` over scores already computed (`vectors.scores`, or a copy of them kept for a second look). */
export function topOf(
  vectors: UserVectors,
  scores: Float32Array,
  k: number,
  minScore: number,
  accept: (index: number) => boolean = () => true,
): Hit[] {
  const { ids } = vectors;
  const best: Hit[] = [];
  let floor = minScore;
  for (let r = 0; r < scores.length; r++) {
    const score = scores[r]!;
    if (score < floor || (best.length === k && score === floor) || !ids[r] || !accept(r)) continue;
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
 * deletion, whichever instance or job made it) still matches; otherwise `load` brings it up to date,
 * given the stale entry of the same model (which it may patch in place) or null.
 */
export class VectorCache {
  private readonly entries: LRUCache<string, Entry>;
  /** One load at a time per user: a patch must not race another patch of the same matrix. */
  private readonly loading = new Map<string, Promise<Entry>>();

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

  /** `key`: the user's id (with a second model's id beside it, during a re-embedding run). */
  async get(
    key: string,
    version: number,
    model: string,
    load: (stale: UserVectors | null) => Promise<UserVectors>,
  ): Promise<UserVectors> {
    // The version only moves forward: an entry at least as new as the one asked for is good.
    const fresh = (e: Entry | undefined) => !!e && e.model === model && e.version >= version;
    for (;;) {
      const cached = this.entries.get(key);
      if (cached && fresh(cached)) return cached.vectors;
      const pending = this.loading.get(key);
      if (pending) {
        // Concurrent searches of one user share one load (an entry over the budget is not kept).
        const done = await pending.catch(() => undefined);
        if (done && fresh(done)) return done.vectors;
        continue;
      }
      const stale = cached?.model === model ? cached.vectors : null;
      const started = load(stale)
        .then((vectors) => {
          const entry = { version, model, vectors };
          // A new entry object: the cache measures it again (a patch may have grown it). An entry
          // larger than the whole budget is used once and not kept.
          this.entries.set(key, entry);
          return entry;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, started);
      return (await started).vectors;
    }
  }
}

interface Entry {
  version: number;
  model: string;
  vectors: UserVectors;
}
