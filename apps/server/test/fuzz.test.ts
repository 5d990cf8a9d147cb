import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startServer, type TestServer } from './harness.js';

/**
 * A bounded property-based probe of every route the OpenAPI document lists (new routes join by
 * being in the document): requests shaped by each route's schemas, with every value sometimes
 * replaced by something hostile. No answer may be a 5xx. FUZZ_RUNS raises the size for a longer run.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = 19;

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  const?: unknown;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: { 'application/json'?: { schema?: Schema } } };
}

const HOSTILE_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '😀',
  '\u202e\u2028',
  'x'.repeat(5000),
  '%00',
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '-1',
  '0',
  '1e309',
  'NaN',
  '9'.repeat(40),
  'null',
  'true',
  '#',
  '#tag',
  '* AND OR NOT "',
  'ab*',
  '(((',
];
/** Already percent-encoded: bytes that are not UTF-8 at all (a lone surrogate's CESU-8, overlong NUL). */
const RAW_ENCODED = ['%ED%A0%80', '%FF', '%C0%80', '%00', '%E2%82', '%'];
/** Addresses that never leave the machine: analysis fetches a link's URL synchronously. */
const URLS = [
  'https://example.invalid/page',
  'http://127.0.0.1:1/',
  'http://[::127.0.0.1]/',
  'javascript:alert(1)',
  'ftp://example.invalid/',
  'https://user:pass@example.invalid/',
  'not a url',
];

/** Text no database can hold, or that only looks like a number, spliced into ordinary text. */
const hostileText = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT),
  fc
    .tuple(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('\u0000', '\ud800', '\udc00', '😀'),
      fc.string({ maxLength: 8 }),
    )
    .map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(null, true, false, -1, 0, 1.5, 1e308, -1e308, 2 ** 53 + 1, [], {}, [null], { '\u0000': 1 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function conforming(schema: Schema | undefined, key: string, depth: number): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => value(s, key, depth + 1)));
  if (schema.allOf?.length) return value(schema.allOf[0], key, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type ?? 'unknown') {
    case 'string':
      if (/url/i.test(key) || schema.format === 'uri') return fc.constantFrom(...URLS);
      return fc.oneof(fc.string({ maxLength: Math.min(schema.maxLength ?? 60, 60) }), fc.constantFrom('abc', 'tag'));
    case 'integer': {
      const min = Math.max(schema.minimum ?? -10, -1e6);
      return fc.integer({ min, max: Math.max(min, Math.min(schema.maximum ?? 1000, 1e6)) });
    }
    case 'number':
      return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(value(schema.items, key, depth + 1), { maxLength: 4 });
    case 'object': {
      const props = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, s] of Object.entries(props)) record[name] = value(s, name, depth + 1);
      const required = (schema.required ?? []).filter((name) => name in props);
      return fc.record(record, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Mostly what the schema asks for, sometimes something hostile in its place. */
function value(schema: Schema | undefined, key: string, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: conforming(schema, key, depth), weight: 3 }, { arbitrary: hostileValue, weight: 1 });
}

function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate cannot be URI-encoded; send its CESU-8 bytes, as a broken client would.
    return RAW_ENCODED[0]!;
  }
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

interface Probe {
  method: string;
  path: string;
  body?: string;
  auth: 'token' | 'none' | 'garbage';
}

function requestsFor(method: string, template: string, op: Operation, linkIds: string[]): fc.Arbitrary<Probe> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathValue = fc.oneof(
    fc.constantFrom(...linkIds),
    fc.constant('01900000-0000-7000-8000-000000000000'),
    hostileText.map(encode),
    fc.constantFrom(...RAW_ENCODED),
  );
  const queryValue = (p: Parameter) =>
    fc.oneof(
      { arbitrary: conforming(p.schema, p.name, 0).map((v) => encode(asText(v))), weight: 3 },
      { arbitrary: hostileText.map(encode), weight: 1 },
      { arbitrary: fc.constantFrom(...RAW_ENCODED), weight: 1 },
    );
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const body: fc.Arbitrary<string | undefined> = op.requestBody
    ? fc.oneof(
        { arbitrary: value(schema, 'body', 0).map((v) => JSON.stringify(v) ?? 'null'), weight: 5 },
        { arbitrary: fc.constantFrom('{', '[]', '""', 'null', '{"a":', '\u0000'), weight: 1 },
      )
    : fc.constant(undefined);
  return fc
    .record({
      path: fc.tuple(...pathParams.map(() => pathValue)),
      query: fc.tuple(...queryParams.map((p) => fc.option(queryValue(p), { nil: undefined }))),
      body,
      auth: fc.constantFrom<Probe['auth']>('token', 'token', 'token', 'token', 'none', 'garbage'),
    })
    .map(({ path, query, body: sent, auth }) => {
      let url = template;
      pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, path[i] ?? 'x')));
      const search = queryParams
        .map((p, i) => (query[i] === undefined ? undefined : `${p.name}=${query[i]}`))
        .filter((pair) => pair !== undefined)
        .join('&');
      return { method: method.toUpperCase(), path: search ? `${url}?${search}` : url, body: sent, auth };
    });
}

describe.each(engines())('fuzz of every route in the OpenAPI document on %s', (engine) => {
  let server: TestServer;
  let token: string;
  let linkIds: string[];
  beforeAll(async () => {
    server = await startServer(engine);
    const user = await server.signUp('fuzz');
    token = user.token;
    const links = await Promise.all(
      ['a', 'b'].map((n) => user.api.createLink({ body: { url: `https://example.com/${n}`, title: n, tags: [n] } })),
    );
    linkIds = links.map((l) => l.id);
  });
  afterAll(() => server.close());

  it('answers every request with a status below 500', { timeout: 600_000 }, async () => {
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    // Signing out (or deleting the account) ends the session the rest of the probe uses: those go last.
    const ends = (path: string) => /logout|^\/api\/account$/.test(path);
    operations.sort((a, b) => Number(ends(a.path)) - Number(ends(b.path)));
    expect(operations.length).toBeGreaterThan(25);

    const failures: string[] = [];
    let sent = 0;
    for (const [index, { path, method, op }] of operations.entries()) {
      const probes = fc.sample(requestsFor(method, path, op, linkIds), { numRuns: RUNS_PER_ROUTE, seed: SEED + index });
      for (const probe of probes) {
        const headers: Record<string, string> = {};
        if (probe.body !== undefined) headers['content-type'] = 'application/json';
        if (probe.auth === 'token') headers.authorization = `Bearer ${token}`;
        if (probe.auth === 'garbage') headers.authorization = 'Bearer \u00ff'.repeat(3);
        const response = await fetch(`${server.url}${probe.path}`, {
          method: probe.method,
          headers,
          body: probe.body,
          redirect: 'manual',
        });
        const text = await response.text();
        sent++;
        if (response.status >= 500) {
          failures.push(`${probe.method} ${probe.path} ${probe.body ?? ''} → ${response.status} ${text.slice(0, 200)}`);
        }
      }
    }
    expect(sent).toBe(operations.length * RUNS_PER_ROUTE);
    expect(failures).toEqual([]);
  });
});
