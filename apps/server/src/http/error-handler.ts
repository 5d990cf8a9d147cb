import type { ErrorCode } from '@linkwise/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';
import { drainBody } from './body-drain.js';
import { frameworkAnswer } from './framework-errors.js';

/** API.md's error table: code → HTTP status. */
const STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  RECAPTCHA_FAILED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  TOTP_REQUIRED: 401,
  TOTP_INVALID: 401,
  TOKEN_SCOPE: 403,
  LINK_LIMIT_REACHED: 403,
  PLAN_REQUIRED: 403,
  NOT_FOUND: 404,
  BILLING_DISABLED: 404,
  EMAIL_TAKEN: 409,
  USERNAME_TAKEN: 409,
  DUPLICATE_LINK: 409,
  INVALID_STATE: 409,
  VAULT_CONFLICT: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  FETCH_FAILED: 422,
  NOT_HTML: 422,
  BLOCKED_ADDRESS: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  UNSUPPORTED_FORMAT: 400,
};

export const statusOf = (code: ErrorCode): number => STATUS[code];

/** Maps every failure to `{error, code, details?}`; nothing else (no stack) ever reaches a client. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    const send = (status: number, code: ErrorCode, error: string, details?: Record<string, unknown>) =>
      reply
        .code(status)
        .type('application/json')
        .send(details ? { error, code, details } : { error, code });

    if (err instanceof AppError) {
      if (err.retryAfterSeconds !== undefined) void reply.header('retry-after', String(err.retryAfterSeconds));
      return send(statusOf(err.code), err.code, err.message, err.details);
    }

    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const field = issue.instancePath.replace(/^\//, '').split('/').join('.') || err.validationContext || 'body';
        fields[field] ??= issue.message ?? 'Invalid value';
      }
      return send(400, 'VALIDATION_ERROR', Object.values(fields)[0] ?? 'Invalid request', { fields });
    }

    const framework = frameworkAnswer(err);
    if (framework) {
      // After a body error Fastify closes the connection: the rest of the body is read first, so
      // the answer is not lost to a reset while the client is still sending.
      if (reply.getHeader('connection') === 'close') await drainBody(request);
      return send(framework.status, framework.code, framework.error);
    }
    if (err instanceof SyntaxError && err.statusCode === 400) {
      return send(400, 'INVALID_JSON', 'The request body is not valid JSON.');
    }
    if (err.statusCode === 429) {
      return send(429, 'RATE_LIMITED', 'Too many requests. Please wait a moment and try again.');
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      return send(500, 'INTERNAL', 'Something went wrong on our side. Please try again.');
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return send(err.statusCode, 'VALIDATION_ERROR', err.message);
    }
    request.log.error({ err }, 'unhandled error');
    return send(500, 'INTERNAL', 'Something went wrong on our side. Please try again.');
  });
}
