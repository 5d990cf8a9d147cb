import { ErrorCodes } from '@linkwise/contract';
import { errorCodes, type FastifyError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { frameworkAnswer } from './framework-errors.js';

/** Fastify 5's errors that a request can cause (the rest are programming errors at start-up). */
const REQUEST_ERRORS = [
  'FST_ERR_CTP_BODY_TOO_LARGE',
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_VALIDATION',
  'FST_ERR_BAD_URL',
  'FST_ERR_MAX_PARAM_LENGTH',
  'FST_ERR_NOT_FOUND',
  'FST_ERR_ASYNC_CONSTRAINT',
] as const;

describe('Fastify errors in API.md terms', () => {
  it.each(REQUEST_ERRORS)('%s has a contract code and keeps its HTTP status', (name) => {
    const ErrorClass = errorCodes[name] as unknown as new (...args: string[]) => FastifyError;
    const err = new ErrorClass('x', 'y');
    const found = frameworkAnswer(err);
    expect(found, name).toBeDefined();
    expect(ErrorCodes).toContain(found?.code);
    expect(found?.status).toBe(err.statusCode);
    expect(found?.error).toMatch(/^[A-Z].*\.$|^Not found$/);
  });

  it('answers @fastify/static’s status-only errors', () => {
    const rangeError = Object.assign(new Error('Range Not Satisfiable'), { statusCode: 416 }) as FastifyError;
    expect(frameworkAnswer(rangeError)).toMatchObject({ status: 416, code: 'VALIDATION_ERROR' });
    expect(frameworkAnswer(Object.assign(new Error('x'), { statusCode: 500 }) as FastifyError)).toBeUndefined();
  });
});
