import type { RouteDef, RouteInput, RouteOutput } from './route.js';
import { routes, type Routes } from './routes.js';
import { ErrorBodySchema } from './common.js';

/** A non-2xx answer from the API, carrying the contract's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly details: Record<string, unknown> | undefined,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  /** Origin of the server, e.g. http://127.0.0.1:3000; empty for same-origin browser use. */
  baseUrl?: string;
  /** Returns the bearer token to send, if any. */
  getToken?: () => string | null | undefined;
  fetch?: typeof fetch;
  /** Parse successful responses with the route's schema (on by default). */
  validateResponses?: boolean;
  /** Extra headers on every request (for example a user agent in scripts). */
  headers?: Record<string, string>;
}

/** Per-call options: an AbortSignal cancels the request (a newer search, a closed dialog). */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** The request outlives the page that sends it (a delete confirmed just before a reload). */
  keepalive?: boolean | undefined;
}

type Callers = {
  [K in keyof Routes]: (input?: RouteInput<Routes[K]>, options?: CallOptions) => Promise<RouteOutput<Routes[K]>>;
} & {
  [K in keyof Routes as RouteInput<Routes[K]> extends { params: unknown } | { body: unknown } ? K : never]: (
    input: RouteInput<Routes[K]>,
    options?: CallOptions,
  ) => Promise<RouteOutput<Routes[K]>>;
};

export type ApiClient = Callers & {
  call<R extends RouteDef>(route: R, input?: RouteInput<R>, options?: CallOptions): Promise<RouteOutput<R>>;
};

const asText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? `${value}`
      : JSON.stringify(value);

/** Fill `:name` segments of a route path. */
export function buildPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(asText(value));
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(key, asText(value));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** Typed client for every route in the contract; used by the web app, the extension and tests. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const validate = options.validateResponses ?? true;

  async function call<R extends RouteDef>(
    route: R,
    input?: RouteInput<R>,
    callOptions: CallOptions = {},
  ): Promise<RouteOutput<R>> {
    const { params, query, body } = (input ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
    };
    const url = `${options.baseUrl ?? ''}${buildPath(route.path, params)}${queryString(query)}`;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const token = options.getToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';

    const response = await doFetch(url, {
      method: route.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: callOptions.signal,
      ...(callOptions.keepalive && { keepalive: true }),
    });
    const text = await response.text();
    if (!response.ok) {
      let parsed: { error: string; code: string; details?: Record<string, unknown> } = {
        error: response.statusText || `Request failed with status ${response.status}`,
        code: 'INTERNAL',
      };
      try {
        const result = ErrorBodySchema.safeParse(JSON.parse(text));
        if (result.success) parsed = result.data;
      } catch {
        // Not JSON (a proxy error page, say): keep the status text.
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new ApiError(
        response.status,
        parsed.error,
        parsed.code,
        parsed.details,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      );
    }
    if (!route.response || response.status === 204) return undefined as RouteOutput<R>;
    const json: unknown = JSON.parse(text);
    return (validate ? route.response.parse(json) : json) as RouteOutput<R>;
  }

  const client: Record<string, unknown> = { call };
  for (const [name, route] of Object.entries(routes)) {
    client[name] = (input?: unknown, callOptions?: CallOptions) => call(route as RouteDef, input as never, callOptions);
  }
  return client as ApiClient;
}
