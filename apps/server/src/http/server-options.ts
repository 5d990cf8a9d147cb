import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { Config } from '../config.js';
import { clientErrorHandler, frameworkErrors } from './framework-errors.js';

/** Headers come in one packet or a few; a client still sending them after this is stalling. */
const HEADERS_TIMEOUT_MS = 15_000;

/**
 * Fastify's server options for slow and malformed requests (decision record 0007):
 * - `requestTimeout`: headers and body must arrive within REQUEST_TIMEOUT_SECONDS (Fastify turns
 *   Node's 300 s default off, so a body that never finished held its socket forever); the client
 *   gets a JSON 408 from `clientErrorHandler` and the socket is closed.
 * - Node checks those deadlines every `connectionsCheckingInterval` (30 s by default, which would
 *   let a 30 s timeout fire anywhere up to 60 s); a sixth of the timeout keeps it within ~17 %.
 * - Idle keep-alive sockets close after Fastify's 72 s (longer than the usual 60 s of load
 *   balancers). No inactivity timeout while a request runs: LLM analysis may legitimately wait.
 * - Errors found outside a route (see framework-errors.ts) answer in API.md's error body.
 */
export function httpServerOptions(
  config: Pick<Config, 'REQUEST_TIMEOUT_SECONDS'>,
): Pick<
  FastifyHttpOptions<Server>,
  'requestTimeout' | 'http' | 'clientErrorHandler' | 'frameworkErrors' | 'return503OnClosing'
> {
  const requestTimeout = config.REQUEST_TIMEOUT_SECONDS * 1000;
  return {
    requestTimeout,
    http: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(requestTimeout / 6))),
    },
    clientErrorHandler,
    frameworkErrors,
    // Fastify's own 503 while closing has its own body; InFlight answers in the contract's instead.
    return503OnClosing: false,
  };
}
