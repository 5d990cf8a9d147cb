import { USE_LITE_DIMENSIONS, USE_LITE_MODEL_ID } from './use-lite.constants.js';
import { WorkerClient, workerFile } from '../../lib/worker-client.js';

/**
 * What a text is embedded for: a stored link (`document`, the default) or a search someone is
 * waiting on (`query`: a remote model gets one short attempt, and retrieval models that tell the two
 * apart are told).
 */
export type EmbedPurpose = 'document' | 'query';

/**
 * How a model's cosines read: below `floor` a query's neighbour is noise; at `certain` and above a
 * match is as sure as an exact word match. Search rescales cosines between the two, so a similarity
 * means the same whichever model made the vectors (decision 0011).
 */
export interface Calibration {
  floor: number;
  certain: number;
  /** How the neighbours at or above `floor` are ordered, when not by this cosine (decision 0022). */
  ranking?: Ranking;
}

/**
 * A second look at the neighbours a joined model's cosine lets through (decisions 0020, 0022): each
 * model's part of the vectors on its own (unit length, a background mean taken out where given),
 * weighed again. The cosine still decides what matches; this score orders it, read on the model's
 * scale through its own `floor` and `certain` (where the cosine's are, fitted over query–page pairs).
 */
export interface Ranking {
  /** In the joined vector's order: each part's length and its weight in the ranking score. */
  parts: { dimensions: number; weight: number; centre?: readonly number[] }[];
  floor: number;
  certain: number;
}

/** For models never measured here (remote ones): USE-lite's values, the most permissive. */
export const DEFAULT_CALIBRATION: Calibration = { floor: 0.15, certain: 0.5 };

/** Turns texts into vectors; shared by analysis (page vectors) and search (query vectors). */
export interface Embedder {
  /** Stored with each vector, so a model change can be detected and re-embedded. */
  readonly modelId: string;
  readonly dimensions: number;
  /** How its cosines read (DEFAULT_CALIBRATION when absent). */
  readonly calibration?: Calibration;
  /** One unit-length vector per text; an empty text gets a zero vector (it matches nothing). */
  embed(texts: string[], purpose?: EmbedPurpose): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Words of a page that go into its vector (ARCHITECTURE §4: the first ~300 words). */
export const EMBED_WORDS = 300;
const BATCH = 8;

export function clipWords(text: string, words = EMBED_WORDS): string {
  return text.split(/\s+/).filter(Boolean).slice(0, words).join(' ');
}

/** The text a link's vectors are made of, analysis and re-embedding alike: title. description. text. */
export function pageText(...parts: (string | null | undefined)[]): string {
  return parts.filter(Boolean).join('. ');
}

export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/**
 * USE-lite in a worker thread, started on first use. Requests queue in the worker, so concurrent
 * callers are served one batch at a time.
 */
export class WorkerEmbedder implements Embedder {
  readonly modelId = USE_LITE_MODEL_ID;
  readonly dimensions = USE_LITE_DIMENSIONS;
  readonly calibration = DEFAULT_CALIBRATION;
  private readonly worker = new WorkerClient<{ texts: string[]; purpose: EmbedPurpose }, Float32Array[]>(
    workerFile('embed', import.meta.url),
  );

  async embed(texts: string[], purpose: EmbedPurpose = 'document'): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    const todo = texts.map((t, i) => [clipWords(t), i] as const).filter(([t]) => t.length > 0);
    for (let start = 0; start < todo.length; start += BATCH) {
      const batch = todo.slice(start, start + BATCH);
      const vectors = await this.worker.call({ texts: batch.map(([t]) => t), purpose });
      batch.forEach(([, index], k) => (out[index] = normalize(vectors[k]!)));
    }
    return out;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
