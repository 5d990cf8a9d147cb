import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CHROME_EXTENSION_ID } from '@linkwise/contract';
import { engines, freePort, raw, startServer, type TestServer } from './harness.js';

describe.each(engines())('HTTP hygiene on %s', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(engine);
    token = (await server.signUp('hygiene')).token;
  });
  afterAll(() => server.close());

  it('answers health without secrets', async () => {
    const res = await raw(server, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: 'ok', version: expect.any(String) as string });
  });

  it('turns malformed JSON into INVALID_JSON', async () => {
    for (const body of ['{bad', '{"url": }', '']) {
      const res = await raw(server, 'POST', '/api/links', { token, body });
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ error: 'The request body is not valid JSON.', code: 'INVALID_JSON' });
    }
  });

  it('caps request bodies at 1 MB', async () => {
    const res = await raw(server, 'POST', '/api/links', {
      token,
      body: JSON.stringify({ url: 'https://example.com', notes: 'x'.repeat(1_100_000) }),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('refuses bodies that are not JSON', async () => {
    const res = await raw(server, 'POST', '/api/links', {
      token,
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers unknown API paths with the JSON 404 and other paths with the web app', async () => {
    const api = await raw(server, 'GET', '/api/nope');
    expect([api.status, api.json()]).toEqual([404, { error: 'Not found', code: 'NOT_FOUND' }]);
    const page = await raw(server, 'GET', '/dashboard');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('sends security headers and a request id', async () => {
    const res = await raw(server, 'GET', '/api/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const generated = await raw(server, 'GET', '/api/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('allows cross-origin calls from the known browser extensions only', async () => {
    const origin = `chrome-extension://${BUILT_CHROME_EXTENSION_ID}`;
    const ext = await raw(server, 'OPTIONS', '/api/links', {
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(ext.headers.get('access-control-allow-origin')).toBe(origin);
    const site = await raw(server, 'OPTIONS', '/api/links', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(site.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('publishes OpenAPI generated from the contract', async () => {
    const doc = (await raw(server, 'GET', '/api/openapi.json')).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/links', '/api/links/{id}', '/api/auth/register', '/api/subscription/plans']),
    );
    expect(doc.paths['/api/links']?.post?.requestBody).toBeDefined();
    expect(JSON.stringify(doc)).not.toContain('/billing/simulated');
  });

  it('never returns a stack trace', async () => {
    const res = await raw(server, 'GET', '/api/links/%E0%A4%A', { token });
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('rate limits on sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { RATE_LIMIT_AUTH_PER_MINUTE: '3', TRUST_PROXY: 'true' });
  });
  afterAll(() => server.close());

  it('answers 429 RATE_LIMITED with Retry-After after the limit', async () => {
    const attempt = () =>
      raw(server, 'POST', '/api/auth/login', { body: JSON.stringify({ email: 'a@b.co', password: 'whatever' }) });
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts every sign-in and registration route of an address together', async () => {
    const ip = '10.9.8.7';
    const post = (path: string, body: object) =>
      raw(server, 'POST', path, { body: JSON.stringify(body), headers: { 'x-forwarded-for': ip } });
    const login = { email: 'a@b.co', password: 'whatever' };
    const statuses = [
      (await post('/api/auth/login', login)).status,
      (await post('/api/auth/extension/login', login)).status,
      (await post('/api/auth/register', { email: 'one@b.co', username: 'one', password: 'Tr0ub4dor&3-staple' })).status,
      (
        await post('/api/auth/extension/register', {
          email: 'two@b.co',
          username: 'two',
          password: 'Tr0ub4dor&3-staple',
        })
      ).status,
    ];
    expect(statuses).toEqual([401, 401, 201, 429]);
  });

  it('counts the addresses of one IPv6 /64 as one client', async () => {
    const statuses = [];
    for (let i = 1; i <= 5; i++) {
      const response = await raw(server, 'POST', '/api/auth/login', {
        body: JSON.stringify({ email: `u${i}@b.co`, password: 'whatever' }),
        headers: { 'x-forwarded-for': `2001:db8:1:2::${100 + i}` },
      });
      statuses.push(response.status);
    }
    // Another /64 is another client.
    const other = await raw(server, 'POST', '/api/auth/login', {
      body: JSON.stringify({ email: 'u9@b.co', password: 'whatever' }),
      headers: { 'x-forwarded-for': '2001:db8:1:3::1' },
    });
    expect([...statuses, other.status]).toEqual([401, 401, 401, 429, 429, 401]);
  });

  it('counts the address the proxy saw, not what a client wrote into X-Forwarded-For before it', async () => {
    // A proxy that appends (nginx's $proxy_add_x_forwarded_for): the client's own entries come first.
    const statuses = [];
    for (let i = 1; i <= 5; i++) {
      const response = await raw(server, 'POST', '/api/auth/login', {
        body: JSON.stringify({ email: 'a@b.co', password: 'whatever' }),
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9` },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});

describe('rate limits shared through Redis', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', {
      RATE_LIMIT_AUTH_PER_MINUTE: '2',
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      TRUST_PROXY: 'true',
    });
  });
  afterAll(() => server.close());

  it('counts attempts in Redis', async () => {
    // A fresh client address per run, so earlier runs' counters in the shared Redis do not interfere.
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const attempt = () =>
      raw(server, 'POST', '/api/auth/login', {
        body: JSON.stringify({ email: 'a@b.co', password: 'whatever' }),
        headers: { 'x-forwarded-for': ip },
      });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);
  });
});

describe('Redis that cannot be reached', () => {
  const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

  it('stops the start with one line naming REDIS_URL, without its password', async () => {
    const port = await freePort();
    const error = await startServer('sqlite', { REDIS_URL: `redis://:hunter2secret@127.0.0.1:${port}` }).catch(
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    const { message } = error as Error;
    expect(message).toMatch(
      new RegExp(
        `^REDIS_URL: cannot connect to 127\\.0\\.0\\.1:${port} \\(.+\\)\\. Start Redis there, or leave REDIS_URL unset to keep rate limits in this process\\.$`,
      ),
    );
    expect(message).not.toContain('hunter2secret');
  });

  it('lets sign-in through while Redis is down after the start, and counts again once it is back', async () => {
    // A loopback relay to the real Redis: closing it is an outage this test alone sees.
    const sockets = new Set<Socket>();
    const relay = createServer((client) => {
      const upstream = connect(Number(redisUrl.port || 6379), redisUrl.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayPort = (relay.address() as AddressInfo).port;
    const server = await startServer('sqlite', {
      RATE_LIMIT_AUTH_PER_MINUTE: '2',
      REDIS_URL: `redis://127.0.0.1:${relayPort}`,
      TRUST_PROXY: 'true',
    });
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const attempt = async () =>
      (
        await raw(server, 'POST', '/api/auth/login', {
          body: JSON.stringify({ email: 'a@b.co', password: 'whatever' }),
          headers: { 'x-forwarded-for': ip },
        })
      ).status;
    try {
      expect([await attempt(), await attempt(), await attempt()]).toEqual([401, 401, 429]);
      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      // Not counted while down, and never a 500.
      expect([await attempt(), await attempt(), await attempt()]).toEqual([401, 401, 401]);
      await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve));
      let status = 401;
      for (let i = 0; i < 100 && status !== 429; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = await attempt();
      }
      expect(status).toBe(429);
    } finally {
      await server.close();
      for (const s of sockets) s.destroy();
      relay.close();
    }
  });
});
