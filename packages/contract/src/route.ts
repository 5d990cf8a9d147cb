import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One HTTP route, defined once: the server validates with these schemas, the OpenAPI document is
 * generated from them and the typed client derives its argument and result types from them.
 */
export interface RouteDef {
  readonly method: HttpMethod;
  readonly path: string;
  readonly auth: boolean;
  readonly status: 200 | 201 | 202 | 204;
  readonly summary: string;
  readonly tag: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response?: z.ZodType;
}

/** Identity helper that keeps the literal types of a route definition. */
export function defineRoute<const R extends RouteDef>(def: R): R {
  return def;
}

type Field<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer S extends z.ZodType }
  ? S
  : undefined;

/** What a caller passes for a route: path params, query and body, each only when the route has it. */
export type RouteInput<R extends RouteDef> = (Field<R, 'params'> extends z.ZodType
  ? { params: z.input<Field<R, 'params'>> }
  : { params?: never }) &
  (Field<R, 'query'> extends z.ZodType ? { query?: z.input<Field<R, 'query'>> } : { query?: never }) &
  (Field<R, 'body'> extends z.ZodType ? { body: z.input<Field<R, 'body'>> } : { body?: never });

/** What a route answers on success. */
export type RouteOutput<R extends RouteDef> = R extends { response: infer S extends z.ZodType } ? z.output<S> : void;
