import type { GoogleGenAI } from '@google/genai';
import type { EmbedPurpose } from '../embedder.js';
import { bare } from './embedding-models.js';
import { geminiClient, geminiError } from './gemini.provider.js';
import type { EmbeddingApi } from './remote-embedder.js';

/**
 * Gemini embeddings through `@google/genai`: `models.embedContent` with several contents, which the
 * SDK sends as one `models/{model}:batchEmbedContents` request. `GEMINI_BASE_URL` points it
 * elsewhere (tests, proxies). Retries are ours (`withRetries`), so the SDK's own are off. Texts are
 * sent with the retrieval task type (document or query), which Gemini's embedding models use to
 * place a question near the pages that answer it.
 */
export class GeminiEmbeddingApi implements EmbeddingApi {
  readonly modelId: string;
  private readonly client: GoogleGenAI;

  constructor(
    private readonly options: {
      apiKey: string;
      baseUrl?: string | undefined;
      model: string;
      dimensions: number;
      /** Send `outputDimensionality`. */
      sendDimensions: boolean;
    },
  ) {
    this.modelId = `gemini:${bare(options.model)}`;
    this.client = geminiClient(options.apiKey, options.baseUrl);
  }

  get dimensions(): number {
    return this.options.dimensions;
  }

  async request(inputs: string[], signal: AbortSignal, purpose: EmbedPurpose): Promise<number[][]> {
    try {
      const response = await this.client.models.embedContent({
        model: this.options.model,
        contents: inputs,
        config: {
          abortSignal: signal,
          taskType: purpose === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
          ...(this.options.sendDimensions && { outputDimensionality: this.options.dimensions }),
        },
      });
      return (response.embeddings ?? []).map((e) => e.values ?? []);
    } catch (error) {
      throw geminiError(error);
    }
  }
}
