/** Which remote embedding API a model is served by. */
export type EmbeddingProvider = 'openai' | 'gemini';

interface KnownModel {
  dimensions: number;
  /** The API can return shorter vectors (OpenAI `dimensions`, Gemini `outputDimensionality`). */
  shortens: boolean;
}

/**
 * Output sizes of well-known embedding models. The `Embedder` interface needs its dimension before
 * the first call (search sizes its vector matrices by it); any other model needs EMBEDDING_DIMENSIONS.
 */
const KNOWN: Record<EmbeddingProvider, Record<string, KnownModel>> = {
  openai: {
    'text-embedding-3-small': { dimensions: 1536, shortens: true },
    'text-embedding-3-large': { dimensions: 3072, shortens: true },
    'text-embedding-ada-002': { dimensions: 1536, shortens: false },
  },
  gemini: {
    'text-embedding-004': { dimensions: 768, shortens: true },
    'gemini-embedding-001': { dimensions: 3072, shortens: true },
  },
};

/** Gemini accepts `models/x` as well as `x`. */
export const bare = (model: string): string => model.replace(/^models\//, '');

export function knownModel(provider: EmbeddingProvider, model: string): KnownModel | undefined {
  return KNOWN[provider][bare(model)];
}

/** The known models of a provider, for error messages. */
export function knownModelNames(provider: EmbeddingProvider): string[] {
  return Object.keys(KNOWN[provider]);
}

/**
 * Whether EMBEDDING_DIMENSIONS is sent with each request. Known models that shorten, and every
 * Gemini model, take it as a request; for other OpenAI-compatible models (Ollama, vLLM, LM Studio
 * servers often reject the option) it only declares the size the model returns.
 */
export function sendsDimensions(provider: EmbeddingProvider, model: string): boolean {
  return provider === 'gemini'
    ? knownModel(provider, model)?.shortens !== false
    : !!knownModel(provider, model)?.shortens;
}
