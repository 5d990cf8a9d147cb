import type { RouteDef, RouteOutput } from '@linkwise/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Actor } from '../platform/actor.js';
import { addressKey } from './connection-limits.js';
import { checkRequestText } from './text-hygiene.js';

type Parsed<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

export interface RouteContext<R extends RouteDef> {
  params: Parsed<R, 'params'>;
  query: Parsed<R, 'query'>;
  body: Parsed<R, 'body'>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface AuthedContext<R extends RouteDef> extends RouteContext<R> {
  actor: Actor;
}

export interface RouteOptions {
  /** Requests per minute per user (or per address for public routes). */
  rateLimitPerMinute?: number;
  /** Routes of one group share their per-minute budget (sign-in and registration, web and extension). */
  rateLimitGroup?: string;
  bodyLimit?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

/**
 * Registers a contract route: the schemas validate input and serialise output, the handler calls
 * one service method. Auth runs in onRequest, before the rate limiter (preHandler), so limits on
 * signed-in routes count per user.
 */
export function makeRouter(app: FastifyInstance, authenticate: (request: FastifyRequest) => Promise<void>) {
  function add<R extends RouteDef>(
    route: R,
    handler: (ctx: R['auth'] extends true ? AuthedContext<R> : RouteContext<R>) => Promise<RouteOutput<R>>,
    options: RouteOptions = {},
  ): void {
    app.route({
      method: route.method,
      url: route.path,
      bodyLimit: options.bodyLimit,
      schema: {
        summary: route.summary,
        tags: [route.tag],
        ...(route.auth && { security: [{ bearer: [] }] }),
        ...(route.params && { params: route.params }),
        ...(route.query && { querystring: route.query }),
        ...(route.body && { body: route.body }),
        response: { [route.status]: route.response ?? z.null().describe('No content') },
      },
      ...(route.auth && { onRequest: (request: FastifyRequest) => authenticate(request) }),
      // Text no database can hold is refused before any schema or handler sees it.
      preValidation: (request: FastifyRequest) => checkRequestText(request),
      config: options.rateLimitPerMinute
        ? {
            rateLimit: {
              max: options.rateLimitPerMinute,
              timeWindow: 60_000,
              hook: 'preHandler',
              // Signed out, an address counts as the connection cap counts it: an IPv6 /64 is one client.
              keyGenerator: (req: FastifyRequest) =>
                `${options.rateLimitGroup ?? route.path}:${req.actor?.userId ?? addressKey(req.ip)}`,
            },
          }
        : { rateLimit: false },
      handler: async (request, reply) => {
        const ctx = {
          params: request.params,
          query: request.query,
          body: request.body,
          request,
          reply,
          actor: request.actor,
        } as unknown as AuthedContext<R>;
        const result = await handler(ctx);
        reply.code(route.status);
        return route.status === 204 ? reply.send() : result;
      },
    });
  }
  return add;
}

export type AddRoute = ReturnType<typeof makeRouter>;
