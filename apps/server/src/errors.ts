import type { ErrorCode } from '@linkwise/contract';

/**
 * A failure the caller can act on. Services throw these; one error handler maps each code to the
 * HTTP status of API.md's table, so services never know about HTTP.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Sent as `Retry-After` (seconds) with a 429 or 503. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);

export const validationError = (fields: Record<string, string>) =>
  new AppError('VALIDATION_ERROR', Object.values(fields)[0] ?? 'Invalid request', { fields });
