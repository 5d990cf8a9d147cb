import { ApiError, GoogleGenAI } from '@google/genai';
import { fromStatus, LlmError, type LlmProvider } from './llm.js';

/** The SDK client every Gemini call here uses (chat and embeddings): our retries, not the SDK's. */
export function geminiClient(apiKey: string, baseUrl: string | undefined): GoogleGenAI {
  return new GoogleGenAI({
    apiKey,
    httpOptions: { ...(baseUrl && { baseUrl }), retryOptions: { attempts: 1 } },
  });
}

/** Any failure of an SDK call as an `LlmError`: HTTP statuses by `fromStatus`, the rest retryable. */
export function geminiError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof ApiError) return fromStatus(error.status, error.message);
  return new LlmError(error instanceof Error ? error.message : String(error), true);
}

/** Google Gemini through the official `@google/genai` SDK; `GEMINI_BASE_URL` points it elsewhere (tests, proxies). */
export class GeminiProvider implements LlmProvider {
  readonly name = 'gemini' as const;
  private readonly client: GoogleGenAI;
  private readonly model: string;

  constructor(options: { apiKey: string; baseUrl?: string | undefined; model: string }) {
    this.client = geminiClient(options.apiKey, options.baseUrl);
    this.model = options.model;
  }

  async complete(system: string, user: string, signal: AbortSignal): Promise<string> {
    try {
      const response = await this.client.models.generateContent({
        model: this.model,
        contents: user,
        config: {
          systemInstruction: system,
          temperature: 0.2,
          responseMimeType: 'application/json',
          abortSignal: signal,
        },
      });
      const text = response.text;
      if (!text) throw new LlmError('the provider returned an empty answer', true);
      return text;
    } catch (error) {
      throw geminiError(error);
    }
  }
}
