import { ApiError, GoogleGenAI } from '@google/genai';
import { fromStatus, LlmError, type LlmProvider } from './llm.js';

/** Google Gemini through the official `@google/genai` SDK; `GEMINI_BASE_URL` points it elsewhere (tests, proxies). */
export class GeminiProvider implements LlmProvider {
  readonly name = 'gemini' as const;
  private readonly client: GoogleGenAI;
  private readonly model: string;

  constructor(options: { apiKey: string; baseUrl?: string | undefined; model: string }) {
    this.client = new GoogleGenAI({
      apiKey: options.apiKey,
      httpOptions: { ...(options.baseUrl && { baseUrl: options.baseUrl }), retryOptions: { attempts: 1 } },
    });
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
      if (error instanceof LlmError) throw error;
      if (error instanceof ApiError) throw fromStatus(error.status, error.message);
      throw new LlmError(error instanceof Error ? error.message : String(error), true);
    }
  }
}
