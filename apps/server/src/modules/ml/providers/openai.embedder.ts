import type OpenAI from 'openai';
import { openAiClient, openAiError } from './openai.provider.js';
import type { EmbeddingApi } from './remote-embedder.js';

/**
 * `POST /v1/embeddings` of any OpenAI-compatible server (OpenAI, Ollama, LM Studio, vLLM…) through
 * the official SDK. Floats are asked for explicitly: the SDK otherwise asks for base64, which some
 * compatible servers do not speak. Retries are ours (`withRetries`), so the SDK's own are off.
 */
export class OpenAiEmbeddingApi implements EmbeddingApi {
  readonly modelId: string;
  private readonly client: OpenAI;

  constructor(
    private readonly options: {
      apiKey?: string | undefined;
      baseURL?: string | undefined;
      model: string;
      dimensions: number;
      /** Send `dimensions` (models that can shorten their vectors). */
      sendDimensions: boolean;
    },
  ) {
    this.modelId = `openai:${options.model}`;
    this.client = openAiClient(options.apiKey, options.baseURL);
  }

  get dimensions(): number {
    return this.options.dimensions;
  }

  async request(inputs: string[], signal: AbortSignal): Promise<number[][]> {
    try {
      const response = await this.client.embeddings.create(
        {
          model: this.options.model,
          input: inputs,
          encoding_format: 'float',
          ...(this.options.sendDimensions && { dimensions: this.options.dimensions }),
        },
        { signal },
      );
      // The API documents `index`; ordering by it does not rely on the answer's array order.
      const byIndex = [...response.data].sort((a, b) => a.index - b.index);
      return byIndex.map((d) => d.embedding);
    } catch (error) {
      throw openAiError(error);
    }
  }
}
