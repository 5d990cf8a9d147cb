import { execFile } from 'node:child_process';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, raw, startServer, type TestServer } from './harness.js';
import { exchange, open, parseResponse, postHead, request, until } from './sockets.js';

const run = promisify(execFile);
const OVERSIZED_CLIENT = new URL('./clients/oversized-posts.mjs', import.meta.url).pathname;
const portOf = (server: TestServer) => server.config.PORT;

describe.each(engines())('request bodies on %s', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(engine);
    token = (await server.signUp('bodies')).token;
  });
  afterAll(() => server.close());

  /** Oversized POSTs from a separate process (see clients/oversized-posts.mjs): what each read back. */
  const oversized = async (count: number, bytes: number, framing: 'content-length' | 'chunked') => {
    const { stdout } = await run(process.execPath, [
      OVERSIZED_CLIENT,
      String(portOf(server)),
      token,
      String(count),
      String(bytes),
      framing,
    ]);
    return (JSON.parse(stdout) as { status: number | null; body: string; error?: string }[]).map(
      (r) => `${r.status ?? r.error} ${r.body}`,
    );
  };
  const tooLarge = '413 {"error":"The request body is too large.","code":"PAYLOAD_TOO_LARGE"}';

  it('answers every 3 MB body with the 413, never a reset (20 in a row)', async () => {
    expect(await oversized(20, 3 * 1024 * 1024, 'content-length')).toEqual(Array.from({ length: 20 }, () => tooLarge));
  });

  it('answers every 12 MB body with the 413 as well (a larger body made the reset likelier)', async () => {
    expect(await oversized(20, 12 * 1024 * 1024, 'content-length')).toEqual(Array.from({ length: 20 }, () => tooLarge));
  });

  it('answers an over-limit chunked body (no Content-Length) with the 413 too', async () => {
    expect(await oversized(10, 3 * 1024 * 1024, 'chunked')).toEqual(Array.from({ length: 10 }, () => tooLarge));
  });

  it('gives the 413 to fetch as well', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await raw(server, 'POST', '/api/links', { token, body: JSON.stringify({ notes: 'x'.repeat(3e6) }) });
      expect([res.status, res.json()]).toEqual([
        413,
        { error: 'The request body is too large.', code: 'PAYLOAD_TOO_LARGE' },
      ]);
    }
  });
});

describe.each(engines())('requests aborted mid-body on %s', (engine) => {
  it('leave the in-flight count, so shutdown does not wait for them', async () => {
    const server = await startServer(engine);
    try {
      const { token } = await server.signUp('aborted');
      const sockets: Socket[] = [];
      for (const path of ['/api/links', '/api/auth/login', '/api/nope']) {
        const socket = await open(portOf(server));
        socket.on('error', () => undefined);
        socket.write(postHead(path, 1000, { Authorization: `Bearer ${token}` }) + '{"url": "https://exa');
        sockets.push(socket);
      }
      // All three are past their hooks and waiting for the rest of their bodies.
      await until(() => server.app.inFlight.size === 3, 'three requests in flight');
      for (const socket of sockets) socket.destroy();
      // Before the fix they stayed counted, and shutdown waited its full drain time for them.
      await until(() => server.app.inFlight.size === 0, 'the aborted requests leave the count');
    } finally {
      await server.close();
    }
  });
});

describe('shutdown', () => {
  it('turns requests on kept-alive connections away in the error body while it drains', async () => {
    const server = await startServer('sqlite');
    const port = portOf(server);
    const health = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    // A request in progress keeps the drain waiting.
    const slow = await open(port);
    slow.on('error', () => undefined);
    slow.write(postHead('/api/auth/login', 100) + '{');
    const kept = await open(port);
    expect((await request(kept, health)).status).toBe(200);
    await until(() => server.app.inFlight.size === 1, 'the slow request in flight');

    const closing = server.app.close();
    let answer = await request(kept, health);
    for (let i = 0; i < 50 && answer.status === 200; i++) answer = await request(kept, health);
    expect([answer.status, JSON.parse(answer.body), answer.headers.connection]).toEqual([
      503,
      { error: 'The server is shutting down. Please try again in a moment.', code: 'SERVICE_UNAVAILABLE' },
      'close',
    ]);
    slow.destroy();
    await closing;
    kept.destroy();
    await server.close().catch(() => undefined);
  });
});

describe('slow requests', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { REQUEST_TIMEOUT_SECONDS: '1' });
  });
  afterAll(() => server.close());

  const timeoutAnswer = {
    status: 408,
    body: '{"error":"The request took too long to arrive. Please try again.","code":"REQUEST_TIMEOUT"}',
  };

  it('cuts a body that never finishes with a JSON 408 and closes the connection', async () => {
    const res = await exchange(portOf(server), [postHead('/api/auth/login', 100) + '{"email":'], 15_000);
    expect({ status: res.status, body: res.body }).toEqual(timeoutAnswer);
    expect(res.headers.connection).toBe('close');
    expect(res.closed).toBe(true);
    await until(() => server.app.inFlight.size === 0, 'the timed-out request leaves the count');
  });

  it('cuts headers that never finish the same way', async () => {
    const res = await exchange(portOf(server), ['GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a'], 15_000);
    expect({ status: res.status, body: res.body }).toEqual(timeoutAnswer);
    expect(res.closed).toBe(true);
  });

  it('leaves an idle keep-alive connection open past the request timeout', async () => {
    const socket = await open(portOf(server));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    const get = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    socket.write(get);
    await until(() => received.includes('"status":"ok"'), 'first answer');
    // Idle for longer than REQUEST_TIMEOUT_SECONDS: only requests in progress are timed.
    await new Promise((r) => setTimeout(r, 2_000));
    received = '';
    socket.write(get);
    await until(() => received.includes('"status":"ok"'), 'second answer on the same connection');
    expect(parseResponse(received).status).toBe(200);
    socket.destroy();
  });
});

describe('connections per address', () => {
  let server: TestServer;
  const held: Socket[] = [];
  beforeAll(async () => {
    server = await startServer('sqlite', { MAX_CONNECTIONS_PER_IP: '3' });
  });
  afterAll(async () => {
    held.forEach((s) => s.destroy());
    await server.close();
  });

  const tooMany =
    '{"error":"Too many connections from your address. Please wait a moment and try again.","code":"RATE_LIMITED"}';

  it('answers a connection over the cap with 429 and closes it; a freed slot is usable again', async () => {
    for (let i = 0; i < 3; i++) held.push(await open(portOf(server)));
    const over = await exchange(portOf(server), ['GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n']);
    expect([over.status, over.body, over.headers.connection, over.headers['retry-after']]).toEqual([
      429,
      tooMany,
      'close',
      '5',
    ]);
    expect(over.closed).toBe(true);

    // A body on an over-cap connection is read before the answer, so the 429 is not reset away.
    const body = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(500_000) });
    const withBody = await exchange(portOf(server), [postHead('/api/auth/login', body.length), body]);
    expect([withBody.status, withBody.body]).toEqual([429, tooMany]);

    held.pop()?.destroy();
    await until(async () => (await raw(server, 'GET', '/api/health')).status === 200, 'a slot frees up');
  });
});

describe('requests per address behind a proxy', () => {
  let server: TestServer;
  const held: Socket[] = [];
  beforeAll(async () => {
    server = await startServer('sqlite', { MAX_CONNECTIONS_PER_IP: '2', TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    held.forEach((s) => s.destroy());
    await server.close();
  });

  /** A request of `ip` in progress through the proxy: its body is still arriving. */
  const hold = async (ip: string) => {
    const socket = await open(portOf(server));
    socket.on('error', () => undefined);
    socket.write(postHead('/api/auth/login', 100, { 'X-Forwarded-For': ip }) + '{');
    held.push(socket);
  };
  const health = (ip: string) => `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${ip}\r\n\r\n`;

  it('counts each forwarded client address, and keeps the proxy’s connection open', async () => {
    await hold('203.0.113.7');
    await hold('203.0.113.7');
    // One IPv6 /64 is one address.
    await hold('2001:db8:1:2::1');
    await hold('2001:db8:1:2::2');
    await until(() => server.app.inFlight.size === 4, 'four requests in progress');

    // Many sockets from the proxy's own address are fine; one of them carries several clients.
    const proxy = await open(portOf(server));
    held.push(proxy);
    const third = await request(proxy, health('203.0.113.7'));
    expect([third.status, JSON.parse(third.body)]).toMatchObject([429, { code: 'RATE_LIMITED' }]);
    expect(third.headers.connection).not.toBe('close');
    expect((await request(proxy, health('2001:db8:1:2::3'))).status).toBe(429);
    expect((await request(proxy, health('2001:db8:1:3::1'))).status).toBe(200);
    expect((await request(proxy, health('198.51.100.4'))).status).toBe(200);

    held.splice(0, 2).forEach((s) => s.destroy());
    await until(
      async () =>
        (await raw(server, 'GET', '/api/health', { headers: { 'x-forwarded-for': '203.0.113.7' } })).status === 200,
      'the client’s requests ended',
    );
  });
});

describe('errors raised by the HTTP machinery', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(() => server.close());

  it('answers in API.md’s error body', async () => {
    const badEscape = await raw(server, 'GET', '/api/links/%E0%A4%A');
    expect([badEscape.status, badEscape.json()]).toEqual([
      400,
      { error: 'The address is not valid: it has a malformed %-escape.', code: 'VALIDATION_ERROR' },
    ]);
    const longParam = await raw(server, 'GET', `/api/links/${'a'.repeat(150)}`);
    expect([longParam.status, longParam.json()]).toEqual([
      414,
      { error: 'A value in the address is too long.', code: 'VALIDATION_ERROR' },
    ]);
    const compressed = await raw(server, 'POST', '/api/auth/login', {
      body: '{}',
      headers: { 'content-encoding': 'gzip' },
    });
    expect([compressed.status, compressed.json()]).toEqual([
      415,
      {
        error: 'Send the request body uncompressed: this Content-Encoding is not supported.',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
    ]);
    const headers = await raw(server, 'GET', '/api/health', { headers: { 'x-big': 'a'.repeat(20_000) } });
    expect([headers.status, headers.json()]).toEqual([
      431,
      { error: 'The request headers are too large.', code: 'VALIDATION_ERROR' },
    ]);
    const garbage = await exchange(portOf(server), ['NOT HTTP AT ALL\r\n\r\n']);
    expect([garbage.status, garbage.body]).toEqual([
      400,
      '{"error":"The request is not valid HTTP.","code":"VALIDATION_ERROR"}',
    ]);
  });
});
