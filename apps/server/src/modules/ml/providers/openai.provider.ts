import OpenAI from 'openai';
import { fromStatus, LlmError, type LlmProvider } from './llm.js';

/**
 * The SDK client every OpenAI-compatible call here uses (chat and embeddings): our retries, not the
 * SDK's. Local servers (Ollama, LM Studio) accept any key; the SDK insists on one being set.
 */
export function openAiClient(apiKey: string | undefined, baseURL: string | undefined): OpenAI {
  return new OpenAI({ apiKey: apiKey ?? 'not-needed', baseURL, maxRetries: 0 });
}

/** Any failure of an SDK call as an `LlmError`: HTTP statuses by `fromStatus`, the rest retryable. */
export function openAiError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof OpenAI.APIError) return fromStatus(error.status as number | undefined, error.message);
  return new LlmError(error instanceof Error ? error.message : String(error), true);
}

/**
 * Any OpenAI-compatible chat API through the official SDK: OpenAI itself, or Ollama, LM Studio,
 * vLLM and OpenRouter via `OPENAI_BASE_URL`. Retries are ours (one policy for every provider), so
 * the SDK's own are off.
 */
export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai' as const;
  private readonly client: OpenAI;

  constructor(options: { apiKey?: string | undefined; baseURL?: string | undefined; model: string }) {
    this.client = openAiClient(options.apiKey, options.baseURL);
    this.model = options.model;
  }

  private readonly model: string;

  async complete(system: string, user: string, signal: AbortSignal): Promise<string> {
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.model,
          temperature: 0.2,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        },
        { signal },
      );
      const text = completion.choices[0]?.message.content;
      if (!text) throw new LlmError('the provider returned an empty answer', true);
      return text;
    } catch (error) {
      throw openAiError(error);
    }
  }
}
