import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../src/http/web-app.js';
import { engines, raw, startServer, type TestServer } from './harness.js';

const built = existsSync(path.join(WEB_DIST, 'index.html'));
if (!built) {
  const why = `SKIPPED serving suite: the web app is not built at ${WEB_DIST} (run npm run build)`;
  if (process.env.CI === 'true') throw new Error(`${why}; CI=true does not allow skipping`);
  console.warn(`\n${'!'.repeat(80)}\n${why}\n${'!'.repeat(80)}\n`);
}

/** One GET with exactly the headers given (fetch would add Accept-Encoding and decode the body). */
function get(
  server: TestServer,
  urlPath: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (res: { headers: IncomingHttpHeaders; body: Buffer }): Buffer =>
  res.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(res.body)
    : res.headers['content-encoding'] === 'gzip'
      ? gunzipSync(res.body)
      : res.body;

const varies = (headers: IncomingHttpHeaders) =>
  String(headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe.runIf(built).each(engines())('serving the web app on %s', (engine) => {
  let server: TestServer;
  /** The entry chunk index.html loads, the largest file a first visit downloads. */
  let entry: string;
  beforeAll(async () => {
    server = await startServer(engine);
    const html = readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
    entry = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)?.[1] ?? '';
    expect(entry).not.toBe('');
  });
  afterAll(() => server.close());

  it('sends a hashed asset as its build-time brotli or gzip file, by Accept-Encoding', async () => {
    const original = readFileSync(path.join(WEB_DIST, entry));
    const br = await get(server, entry, { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.status, br.headers['content-encoding']]).toEqual([200, 'br']);
    // The precompressed file itself, byte for byte: not compressed again per request.
    expect(br.body.equals(readFileSync(path.join(WEB_DIST, `${entry}.br`)))).toBe(true);
    expect(decode(br).equals(original)).toBe(true);
    expect(br.headers['content-type']).toMatch(/javascript/);

    const gzip = await get(server, entry, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(statSync(path.join(WEB_DIST, `${entry}.gz`)).size);
    expect(decode(gzip).equals(original)).toBe(true);

    // No Accept-Encoding (or only identity, or only unknown codings): the file as it is.
    const codings: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'compress' },
    ];
    for (const headers of codings) {
      const plain = await get(server, entry, headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(original)).toBe(true);
    }
    for (const res of [br, gzip]) expect(varies(res.headers)).toBe(true);
    expect(varies((await get(server, entry)).headers)).toBe(true);
  });

  it('writes a smaller .br and .gz beside every script, style sheet and page at build time', () => {
    const files = [
      'index.html',
      ...readdirSync(path.join(WEB_DIST, 'assets'))
        .filter((f) => /\.(js|css)$/.test(f))
        .map((f) => `assets/${f}`),
    ];
    const missing: string[] = [];
    for (const file of files) {
      const size = statSync(path.join(WEB_DIST, file)).size;
      for (const ext of ['.br', '.gz']) {
        const sibling = path.join(WEB_DIST, file + ext);
        // Tiny files may compress to more than they are; the build keeps a sibling only when smaller.
        if (!existsSync(sibling) ? size > 1024 : statSync(sibling).size >= size) missing.push(file + ext);
      }
    }
    expect(missing).toEqual([]);
  });

  it('caches hashed assets for a year and revalidates index.html and client routes', async () => {
    const immutable = 'public, max-age=31536000, immutable';
    expect((await get(server, entry)).headers['cache-control']).toBe(immutable);
    const css = readdirSync(path.join(WEB_DIST, 'assets')).find((f) => f.endsWith('.css'));
    expect((await get(server, `/assets/${css}`, { 'accept-encoding': 'br' })).headers['cache-control']).toBe(immutable);
    for (const page of ['/', '/index.html', '/dashboard', '/links/some/client/route?x=1']) {
      const res = await get(server, page, { 'accept-encoding': 'gzip, br' });
      expect([page, res.status, res.headers['cache-control']]).toEqual([page, 200, 'no-cache']);
      expect(decode(res).toString('utf8')).toContain('<div id="root">');
      expect(varies(res.headers)).toBe(true);
    }
  });

  it('answers a missing asset with a plain 404, not the page', async () => {
    for (const missing of ['/assets/missing.js', '/assets/index-00000000.css', '/assets/deep/er/file.js']) {
      const res = await get(server, missing, { 'accept-encoding': 'gzip, br' });
      expect([res.status, res.headers['content-type'], decode(res).toString()]).toEqual([
        404,
        'text/plain; charset=utf-8',
        'Not found',
      ]);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await get(server, '/assets/missing.js', {}, 'HEAD')).status).toBe(404);
    const api = await raw(server, 'GET', '/api/nope');
    expect([api.status, api.json()]).toEqual([404, { error: 'Not found', code: 'NOT_FOUND' }]);
  });

  it('answers a byte range outside a file in the error body', async () => {
    const res = await get(server, entry, { range: 'bytes=99999999-' });
    expect([res.status, JSON.parse(res.body.toString())]).toEqual([
      416,
      { error: 'The requested range is outside the file.', code: 'VALIDATION_ERROR' },
    ]);
  });
});

describe.each(engines())('compressed JSON on %s', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(engine);
    const user = await server.signUp('compress');
    token = user.token;
    for (let i = 0; i < 8; i++) {
      await user.api.createLink({
        body: { url: `https://compress.example/${i}`, title: `A link about compression ${i}`, tags: ['one', 'two'] },
      });
    }
  });
  afterAll(() => server.close());

  it('compresses a JSON answer over 1 kB by Accept-Encoding, and only then', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const plain = await get(server, '/api/links', auth);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const list = JSON.parse(plain.body.toString()) as { data: unknown[] };
    expect(list.data).toHaveLength(8);

    for (const [accept, coding] of [
      ['br, gzip', 'br'],
      ['gzip, deflate', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
    ] as const) {
      const res = await get(server, '/api/links', { ...auth, 'accept-encoding': accept });
      expect([accept, res.headers['content-encoding']]).toEqual([accept, coding]);
      expect(res.body.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(decode(res).toString())).toEqual(list);
      expect(varies(res.headers)).toBe(true);
    }

    // Under 1 kB compression costs more than it saves: sent as is.
    const health = await get(server, '/api/health', { 'accept-encoding': 'br, gzip' });
    expect(health.body.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
  });
});
