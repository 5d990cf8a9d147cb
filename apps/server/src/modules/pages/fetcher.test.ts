import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from './address-policy.js';
import { FetchError, PageFetcher } from './fetcher.js';

let server: Server;
let base: string;
let port: number;
const seenCookies: (string | undefined)[] = [];
const seenAgents: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenCookies.push(req.headers.cookie);
    seenAgents.push(req.headers['user-agent']);
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/page':
        res.setHeader('set-cookie', 'session=abc; Path=/');
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end('<html><head><title>Héllo</title></head><body>ok</body></html>');
      case '/gzip':
        res.setHeader('content-type', 'text/html');
        res.setHeader('content-encoding', 'gzip');
        return res.end(gzipSync('<title>Compressed</title>'));
      case '/latin1-header':
        res.setHeader('content-type', 'text/html; charset=ISO-8859-1');
        return res.end(iconv.encode('<title>Café à la crème</title>', 'latin1'));
      case '/sjis-meta':
        res.setHeader('content-type', 'text/html');
        return res.end(iconv.encode('<meta charset="Shift_JIS"><title>日本語のページ</title>', 'Shift_JIS'));
      case '/cp1251-http-equiv':
        res.setHeader('content-type', 'text/html');
        return res.end(
          iconv.encode(
            '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><title>Привет</title>',
            'win1251',
          ),
        );
      case '/utf8-under-cp1251-meta':
        // A page saved again as UTF-8 that kept its old declaration (corpus: pikabu).
        res.setHeader('content-type', 'text/html');
        return res.end(
          Buffer.from('<meta charset="windows-1251"><title>Интересные наблюдения о первой Матрице</title>', 'utf8'),
        );
      case '/pdf':
        res.setHeader('content-type', 'application/pdf');
        return res.end('%PDF-1.4');
      case '/huge':
        res.setHeader('content-type', 'text/html');
        for (let i = 0; i < 64; i++) res.write('<p>' + 'x'.repeat(64 * 1024) + '</p>');
        return res.end();
      case '/slow':
        res.setHeader('content-type', 'text/html');
        res.write('<title>slow</title>');
        return void setTimeout(() => res.end('late'), 60_000).unref();
      case '/status-500':
        res.statusCode = 500;
        return res.end('boom');
      case '/redirect':
        res.statusCode = 302;
        res.setHeader('location', url.searchParams.get('to') ?? '/page');
        return res.end();
      case '/loop':
        res.statusCode = 301;
        res.setHeader('location', `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}`);
        return res.end();
      default:
        res.statusCode = 404;
        return res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof FetchError) return error.code;
    throw error;
  }
  return 'ok';
}

describe('address policy', () => {
  const blocked = [
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '::127.0.0.1',
    '[::127.0.0.1]',
    '::7f00:1',
    '::8.8.8.8',
    '::1:0:0:1',
    'ff::1',
    '[::1]',
    'not-an-address',
  ];
  it.each(blocked)('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::6810:84e5', '::ffff:8.8.8.8'])('allows %s', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );
});

describe('PageFetcher on loopback (FETCH_ALLOW_PRIVATE=true)', () => {
  const fetcher = new PageFetcher({ allowPrivate: true, timeoutMs: 2000, maxBytes: 256 * 1024 });
  afterAll(() => fetcher.close());

  it('fetches HTML, sends a truthful user agent and no cookies even after one was set', async () => {
    const page = await fetcher.fetch(`${base}/page`);
    expect(page.html).toContain('<title>Héllo</title>');
    await fetcher.fetch(`${base}/page`);
    expect(seenCookies.every((c) => c === undefined)).toBe(true);
    expect(seenAgents.at(-1)).toMatch(/^LinkwiseBot\//);
  });

  it('decompresses gzip bodies', async () => {
    expect((await fetcher.fetch(`${base}/gzip`)).html).toBe('<title>Compressed</title>');
  });

  it.each([
    ['/latin1-header', 'Café à la crème'],
    ['/sjis-meta', '日本語のページ'],
    ['/cp1251-http-equiv', 'Привет'],
    ['/utf8-under-cp1251-meta', 'Интересные наблюдения о первой Матрице'],
  ])('decodes the charset of %s', async (path, title) => {
    expect((await fetcher.fetch(`${base}${path}`)).html).toContain(`<title>${title}</title>`);
  });

  it('does not read bodies that are not HTML', async () => {
    const page = await fetcher.fetch(`${base}/pdf`);
    expect(page).toMatchObject({ html: null, contentType: 'application/pdf' });
  });

  it('reads at most maxBytes of an oversized body', async () => {
    const page = await fetcher.fetch(`${base}/huge`);
    expect(page.truncated).toBe(true);
    expect(Buffer.byteLength(page.html ?? '', 'latin1')).toBeLessThanOrEqual(256 * 1024);
    expect(page.html?.length).toBeGreaterThan(100 * 1024);
  });

  it('gives up on a body that never ends', async () => {
    expect(await codeOf(fetcher.fetch(`${base}/slow`))).toBe('FETCH_FAILED');
  });

  it('reports error statuses and unreachable hosts as FETCH_FAILED', async () => {
    expect(await codeOf(fetcher.fetch(`${base}/status-500`))).toBe('FETCH_FAILED');
    expect(await codeOf(fetcher.fetch(`${base}/missing`))).toBe('FETCH_FAILED');
    expect(await codeOf(fetcher.fetch('http://127.0.0.1:1/'))).toBe('FETCH_FAILED');
  });

  it('follows at most 5 redirects', async () => {
    expect((await fetcher.fetch(`${base}/redirect?to=/gzip`)).url).toBe(`${base}/gzip`);
    expect(await codeOf(fetcher.fetch(`${base}/loop`))).toBe('FETCH_FAILED');
  });

  it('refuses schemes other than http and https', async () => {
    expect(await codeOf(fetcher.fetch('file:///etc/passwd'))).toBe('BLOCKED_ADDRESS');
    expect(await codeOf(fetcher.fetch('ftp://127.0.0.1/'))).toBe('BLOCKED_ADDRESS');
    expect(await codeOf(fetcher.fetch(`${base}/redirect?to=file:///etc/passwd`))).toBe('BLOCKED_ADDRESS');
  });
});

describe('PageFetcher address checks (FETCH_ALLOW_PRIVATE off)', () => {
  it('refuses loopback literals in every spelling', async () => {
    const fetcher = new PageFetcher({ timeoutMs: 2000 });
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::127.0.0.1]',
      '0.0.0.0',
      '2130706433',
    ]) {
      expect(await codeOf(fetcher.fetch(`http://${host}:${port}/page`)), host).toBe('BLOCKED_ADDRESS');
    }
    await fetcher.close();
  });

  it('refuses names that resolve to loopback through the system resolver (localhost)', async () => {
    const fetcher = new PageFetcher({ timeoutMs: 2000 });
    expect(await codeOf(fetcher.fetch(`http://localhost:${port}/page`))).toBe('BLOCKED_ADDRESS');
    await fetcher.close();
  });

  it.each([
    ['loopback', '127.0.0.1'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.20.0.1'],
    ['private 192.168/16', '192.168.0.10'],
    ['link-local / cloud metadata', '169.254.169.254'],
    ['CGNAT', '100.100.1.1'],
    ['unique-local', 'fd12:3456::1'],
    ['IPv6 link-local', 'fe80::abcd'],
    ['multicast', '239.1.1.1'],
    ['IPv6 multicast', 'ff05::2'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['unspecified', '0.0.0.0'],
  ])('refuses a name resolving to %s (%s)', async (_range, address) => {
    const fetcher = new PageFetcher({
      timeoutMs: 2000,
      lookup: () => Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]),
    });
    expect(await codeOf(fetcher.fetch(`http://pages.example.test:${port}/page`))).toBe('BLOCKED_ADDRESS');
    await fetcher.close();
  });

  it('refuses a name with one private answer among public ones', async () => {
    const fetcher = new PageFetcher({
      timeoutMs: 2000,
      lookup: () =>
        Promise.resolve([
          { address: '93.184.216.34', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ]),
    });
    expect(await codeOf(fetcher.fetch(`http://mixed.example.test:${port}/page`))).toBe('BLOCKED_ADDRESS');
    await fetcher.close();
  });

  it('re-checks every redirect: a permitted host redirecting into private space is refused', async () => {
    // 127.0.0.1 stands in for a public host here; every other address keeps the real policy.
    const fetcher = new PageFetcher({
      timeoutMs: 2000,
      addressPolicy: (address) => address === '127.0.0.1' || isPublicAddress(address),
    });
    expect((await fetcher.fetch(`${base}/page`)).html).toContain('Héllo');
    for (const target of [
      `http://127.0.0.2:${port}/page`,
      `http://[::1]:${port}/page`,
      `http://[::ffff:a00:1]:${port}/`,
      `http://169.254.169.254/latest/meta-data/`,
    ]) {
      expect(await codeOf(fetcher.fetch(`${base}/redirect?to=${encodeURIComponent(target)}`)), target).toBe(
        'BLOCKED_ADDRESS',
      );
    }
    await fetcher.close();
  });
});
