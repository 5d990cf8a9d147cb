/** A chat model: one system and one user message in, the answer's text out. */
export interface LlmProvider {
  readonly name: 'openai' | 'gemini';
  /** Raw answer text of one attempt; throws `LlmError` (retryable or not) on failure. */
  complete(system: string, user: string, signal: AbortSignal): Promise<string>;
}

export class LlmError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface LlmPolicy {
  timeoutMs: number;
  /** Attempts including the first. */
  attempts: number;
  backoffBaseMs: number;
}

/**
 * Runs `attempt` with a per-attempt timeout, retrying with exponential backoff on rate limits, server
 * errors, timeouts and anything else not marked final (`LlmError.retryable === false`). Throws the
 * last error when every attempt failed. One policy for every remote model: chat and embeddings.
 */
export async function withRetries<T>(policy: LlmPolicy, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (let n = 1; n <= policy.attempts; n++) {
    try {
      return await attempt(AbortSignal.timeout(policy.timeoutMs));
    } catch (error) {
      lastError = error;
      if (error instanceof LlmError && !error.retryable) break;
      if (n < policy.attempts) {
        await new Promise((resolve) => setTimeout(resolve, policy.backoffBaseMs * 2 ** (n - 1)));
      }
    }
  }
  throw lastError;
}

/** Maps an SDK error status to retryable (429, 5xx, network/timeouts) or not (400, 401, 403, 404). */
export function fromStatus(status: number | undefined, message: string): LlmError {
  const retryable = status === undefined || status === 408 || status === 429 || status >= 500;
  return new LlmError(status ? `provider answered ${status}: ${message}` : message, retryable);
}
