import type { Socket } from 'node:net';
import type { ErrorCode } from '@linkwise/contract';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** An answer in API.md's error body, for failures raised by the HTTP machinery rather than by a route. */
export interface FrameworkAnswer {
  status: number;
  code: ErrorCode;
  error: string;
}

const answer = (status: number, code: ErrorCode, error: string): FrameworkAnswer => ({ status, code, error });

/**
 * Fastify 5's errors (and those of its plugins in use) that a client can cause, in API.md's terms.
 * The HTTP status stays the protocol's own where API.md's table has none (408, 414, 416, 431).
 */
const BY_CODE: Record<string, FrameworkAnswer> = {
  FST_ERR_CTP_INVALID_JSON_BODY: answer(400, 'INVALID_JSON', 'The request body is not valid JSON.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: answer(400, 'INVALID_JSON', 'The request body is not valid JSON.'),
  FST_ERR_CTP_BODY_TOO_LARGE: answer(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: answer(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: answer(
    400,
    'VALIDATION_ERROR',
    'The request body does not match the length its Content-Length header announced.',
  ),
  FST_ERR_VALIDATION: answer(400, 'VALIDATION_ERROR', 'The request is not valid.'),
  FST_ERR_BAD_URL: answer(400, 'VALIDATION_ERROR', 'The address is not valid: it has a malformed %-escape.'),
  FST_ERR_MAX_PARAM_LENGTH: answer(414, 'VALIDATION_ERROR', 'A value in the address is too long.'),
  FST_ERR_NOT_FOUND: answer(404, 'NOT_FOUND', 'Not found'),
  FST_ERR_ASYNC_CONSTRAINT: answer(500, 'INTERNAL', 'Something went wrong on our side. Please try again.'),
  // @fastify/compress: request bodies are accepted uncompressed only (see http/compression.ts).
  FST_CP_ERR_INVALID_CONTENT_ENCODING: answer(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'Send the request body uncompressed: this Content-Encoding is not supported.',
  ),
  FST_CP_ERR_INVALID_CONTENT: answer(400, 'INVALID_JSON', 'The request body could not be decompressed.'),
};

/** Errors without a code: @fastify/static's file errors carry only an HTTP status. */
const BY_STATUS: Record<number, FrameworkAnswer> = {
  408: answer(408, 'REQUEST_TIMEOUT', 'The request took too long to arrive. Please try again.'),
  412: answer(412, 'VALIDATION_ERROR', 'The file changed since the version the request names.'),
  416: answer(416, 'VALIDATION_ERROR', 'The requested range is outside the file.'),
};

/** The answer for a Fastify or plugin error, or undefined when the error is not one of theirs. */
export function frameworkAnswer(err: FastifyError): FrameworkAnswer | undefined {
  return (err.code ? BY_CODE[err.code] : undefined) ?? (err.statusCode ? BY_STATUS[err.statusCode] : undefined);
}

/**
 * Fastify's `frameworkErrors` option: errors found before a route is chosen (a malformed %-escape,
 * an over-long path parameter) would otherwise get Fastify's own body instead of API.md's.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const found = frameworkAnswer(err) ?? answer(400, 'VALIDATION_ERROR', 'The request is not valid.');
  void reply.code(found.status).type('application/json').send({ error: found.error, code: found.code });
}

const clientErrorAnswer = (err: ConnectionError): FrameworkAnswer => {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return BY_STATUS[408] as FrameworkAnswer;
  if (err.code === 'HPE_HEADER_OVERFLOW') return answer(431, 'VALIDATION_ERROR', 'The request headers are too large.');
  return answer(400, 'VALIDATION_ERROR', 'The request is not valid HTTP.');
};

/** How long a socket that got an error answer keeps reading before it is closed. */
const LINGER_MS = 2_000;
const answered = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler` option: Node found the request unreadable (malformed HTTP, headers
 * too large) or too slow (headers or body not complete in REQUEST_TIMEOUT_SECONDS). The answer is
 * followed by the end of the connection, since what follows on it cannot be parsed; the socket
 * keeps reading (and dropping) what the client still sends for LINGER_MS, because closing with
 * unread data resets the connection, and a reset can destroy the answer before the client reads it.
 */
export function clientErrorHandler(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  // A response already started on this socket cannot be followed by another one.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent;
  if (!socket.writable || started) return void socket.destroy(err);
  const found = clientErrorAnswer(err);
  const body = JSON.stringify({ error: found.error, code: found.code });
  socket.end(
    `HTTP/1.1 ${found.status} ${STATUS_TEXT[found.status] ?? 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};
