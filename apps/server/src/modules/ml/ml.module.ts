import type { Config } from '../../config.js';
import { WorkerEmbedder, type EmbedPurpose, type Embedder } from './embedder.js';
import { GeminiEmbeddingApi } from './providers/gemini.embedder.js';
import { GeminiProvider } from './providers/gemini.provider.js';
import type { LlmPolicy, LlmProvider } from './providers/llm.js';
import { OpenAiEmbeddingApi } from './providers/openai.embedder.js';
import { OpenAiProvider } from './providers/openai.provider.js';
import { RemoteEmbedder } from './providers/remote-embedder.js';
import { USE_LITE_MODEL_ID } from './use-lite.model.js';

/** One retry policy for every remote model call: AI_TIMEOUT_SECONDS per attempt, 3 attempts. */
export function policyFrom(config: Config): LlmPolicy {
  return { timeoutMs: config.AI_TIMEOUT_SECONDS * 1000, attempts: 3, backoffBaseMs: 500 };
}

/** The remote embedding model of OPENAI_EMBEDDING_MODEL or GEMINI_EMBEDDING_MODEL; null: none set. */
export function remoteEmbedderFrom(config: Config): Embedder | null {
  const remote = config.remoteEmbedding;
  if (!remote) return null;
  const { model, dimensions, sendDimensions } = remote;
  const api =
    remote.provider === 'openai'
      ? new OpenAiEmbeddingApi({
          apiKey: config.OPENAI_API_KEY,
          baseURL: config.OPENAI_BASE_URL,
          model,
          dimensions,
          sendDimensions,
        })
      : new GeminiEmbeddingApi({
          apiKey: config.GEMINI_API_KEY ?? '',
          baseUrl: config.GEMINI_BASE_URL,
          model,
          dimensions,
          sendDimensions,
        });
  return new RemoteEmbedder(api, policyFrom(config));
}

export function llmFrom(config: Config): LlmProvider | null {
  if (config.AI_PROVIDER === 'openai') {
    return new OpenAiProvider({
      apiKey: config.OPENAI_API_KEY,
      baseURL: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
    });
  }
  if (config.AI_PROVIDER === 'gemini' && config.GEMINI_API_KEY) {
    return new GeminiProvider({
      apiKey: config.GEMINI_API_KEY,
      baseUrl: config.GEMINI_BASE_URL,
      model: config.GEMINI_MODEL,
    });
  }
  return null;
}

/** The models a process uses. Each loads on first use, so a process that never embeds never loads one. */
export interface Models {
  /** The model of the stored link vectors and of search queries. */
  embedder: Embedder;
  /** The offline model the category anchors are tuned on (the same object when no remote model is set). */
  categoryEmbedder: Embedder;
  llm: LlmProvider | null;
  llmPolicy: LlmPolicy;
  close(): Promise<void>;
}

/** Told how long each embedding call took (metrics). */
export type InferenceObserver = (model: string, purpose: EmbedPurpose, seconds: number) => void;

/** An embedder that reports each call's time; the model and its vectors are untouched. */
class TimedEmbedder implements Embedder {
  constructor(
    private readonly inner: Embedder,
    private readonly observe: InferenceObserver,
  ) {}
  get modelId(): string {
    return this.inner.modelId;
  }
  get dimensions(): number {
    return this.inner.dimensions;
  }
  async embed(texts: string[], purpose: EmbedPurpose = 'document'): Promise<Float32Array[]> {
    const started = performance.now();
    try {
      return await this.inner.embed(texts, purpose);
    } finally {
      this.observe(this.inner.modelId, purpose, (performance.now() - started) / 1000);
    }
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

export function buildModels(config: Config, chosen?: Embedder, observe?: InferenceObserver): Models {
  const timed = (e: Embedder) => (observe ? new TimedEmbedder(e, observe) : e);
  const embedder = timed(chosen ?? remoteEmbedderFrom(config) ?? new WorkerEmbedder());
  // Categories are tuned on the offline model: it stays theirs whatever embeds for search.
  const categoryEmbedder = embedder.modelId === USE_LITE_MODEL_ID ? embedder : timed(new WorkerEmbedder());
  return {
    embedder,
    categoryEmbedder,
    llm: llmFrom(config),
    llmPolicy: policyFrom(config),
    async close() {
      await embedder.close();
      if (categoryEmbedder !== embedder) await categoryEmbedder.close();
    },
  };
}
