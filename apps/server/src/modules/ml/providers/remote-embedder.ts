import { clipWords, normalize, type EmbedPurpose, type Embedder } from '../embedder.js';
import { LlmError, withRetries, type LlmPolicy } from './llm.js';

/** One embeddings endpoint: raw vectors for a batch of non-empty texts, in their order. */
export interface EmbeddingApi {
  /** `provider:model`, stored with each vector so a model change is detected. */
  readonly modelId: string;
  readonly dimensions: number;
  /** Throws `LlmError` (retryable or not) on failure. */
  request(inputs: string[], signal: AbortSignal, purpose: EmbedPurpose): Promise<number[][]>;
}

/**
 * A search query's embedding gets one attempt of at most this long (or AI_TIMEOUT_SECONDS if
 * shorter): someone is waiting, and search answers from text alone when it fails. Under the
 * analysis policy a hanging provider held a search for 3 × AI_TIMEOUT_SECONDS plus backoff.
 */
export const QUERY_TIMEOUT_MS = 3000;

/** Inputs per request: well under the providers' caps (OpenAI 2,048, Gemini 100) and their body limits. */
export const EMBED_BATCH = 64;

/**
 * An `Embedder` over a remote API: texts clipped to the same first words the offline model reads,
 * empty texts answered locally with a zero vector, batches of `EMBED_BATCH` sent one after another
 * under the shared retry policy (timeout per attempt, backoff on 429/5xx/timeouts); a search query
 * under a short one (`QUERY_TIMEOUT_MS`). A vector of the wrong length, or a wrong count of them, is
 * an error: it would be stored and never match.
 */
export class RemoteEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  private readonly queryPolicy: LlmPolicy;

  constructor(
    private readonly api: EmbeddingApi,
    private readonly policy: LlmPolicy,
    private readonly batch = EMBED_BATCH,
  ) {
    this.modelId = api.modelId;
    this.dimensions = api.dimensions;
    this.queryPolicy = { timeoutMs: Math.min(policy.timeoutMs, QUERY_TIMEOUT_MS), attempts: 1, backoffBaseMs: 0 };
  }

  async embed(texts: string[], purpose: EmbedPurpose = 'document'): Promise<Float32Array[]> {
    const policy = purpose === 'query' ? this.queryPolicy : this.policy;
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    const todo = texts.map((t, i) => [clipWords(t), i] as const).filter(([t]) => t.length > 0);
    for (let start = 0; start < todo.length; start += this.batch) {
      const batch = todo.slice(start, start + this.batch);
      const inputs = batch.map(([t]) => t);
      const vectors = await withRetries(policy, (signal) => this.api.request(inputs, signal, purpose));
      if (vectors.length !== inputs.length) {
        throw new LlmError(`${this.modelId} returned ${vectors.length} vectors for ${inputs.length} texts`, false);
      }
      batch.forEach(([, index], k) => {
        const raw = vectors[k]!;
        if (raw.length !== this.dimensions) {
          throw new LlmError(
            `${this.modelId} returned a vector of ${raw.length} dimensions, not ${this.dimensions} (check EMBEDDING_DIMENSIONS)`,
            false,
          );
        }
        out[index] = normalize(Float32Array.from(raw));
      });
    }
    return out;
  }

  /** Nothing to release: the SDKs hold no connections of their own beyond fetch's pool. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
