import { existsSync } from 'node:fs';
import path from 'node:path';
import { BUILT_CHROME_EXTENSION_ID, EXTENSION_DOWNLOADS, Messages } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { EXTENSION_DIST } from '../src/modules/extension/extension.routes.js';
import { engines, failure, raw, startServer, type TestServer } from './harness.js';

const FIREFOX_UUID = '0f6d1f3a-7c4e-4b8e-9a51-3f2d6c1b9e70';
const OTHER_CHROME_ID = 'abcdefghijklmnopabcdefghijklmnop';

describe.each(engines())('browser extension support on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, { EXTENSION_IDS: `${OTHER_CHROME_ID}, ${FIREFOX_UUID.toUpperCase()}` });
  });
  afterAll(() => server.close());

  describe('GET /api/links/lookup', () => {
    it('finds the saved link by its normalised URL and answers null otherwise', async () => {
      const { api } = await server.signUp('lookup');
      const saved = await api.createLink({
        body: { url: 'https://www.example.com/guide/?b=2&a=1', title: 'Guide', category: 'Tutorials', tags: ['a'] },
      });
      for (const url of [
        'https://example.com/guide?a=1&b=2',
        'http://www.example.com/guide/?a=1&b=2&utm_source=news#top',
      ]) {
        const { data } = await api.lookupLink({ query: { url } });
        expect(data?.id).toBe(saved.id);
        expect(data).toMatchObject({ category: 'Tutorials', tags: ['a'], title: 'Guide' });
      }
      expect((await api.lookupLink({ query: { url: 'https://example.com/guide?a=2' } })).data).toBeNull();
    });

    it("never reveals another user's link", async () => {
      const owner = await server.signUp('owner');
      const stranger = await server.signUp('stranger');
      await owner.api.createLink({ body: { url: 'https://private.example/secret' } });
      expect((await stranger.api.lookupLink({ query: { url: 'https://private.example/secret' } })).data).toBeNull();
    });

    it('needs a token and a valid http(s) URL', async () => {
      const anonymous = await failure(server.api().lookupLink({ query: { url: 'https://example.com' } }));
      expect([anonymous.status, anonymous.code]).toEqual([401, 'UNAUTHENTICATED']);
      const { token } = await server.signUp('badurl');
      for (const url of ['', 'notaurl', 'javascript:alert(1)', 'chrome://extensions']) {
        const res = await raw(server, 'GET', `/api/links/lookup?url=${encodeURIComponent(url)}`, { token });
        expect(res.status).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: { fields: { url: Messages.invalidUrl } },
        });
      }
      const missing = await raw(server, 'GET', '/api/links/lookup', { token });
      expect(missing.status).toBe(400);
    });
  });

  describe('CORS', () => {
    const preflight = (origin: string) =>
      raw(server, 'OPTIONS', '/api/links', {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });

    it('admits the built Chrome package and the configured ids', async () => {
      for (const origin of [
        `chrome-extension://${BUILT_CHROME_EXTENSION_ID}`,
        `chrome-extension://${OTHER_CHROME_ID}`,
        `moz-extension://${FIREFOX_UUID}`,
      ]) {
        const res = await preflight(origin);
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
      }
    });

    it('refuses every other extension and web origin', async () => {
      for (const origin of [
        'chrome-extension://pppppppppppppppppppppppppppppppp',
        'moz-extension://11111111-2222-3333-4444-555555555555',
        'https://evil.example',
        'null',
      ]) {
        expect((await preflight(origin)).headers.get('access-control-allow-origin')).toBeNull();
      }
    });
  });

  describe('install information and downloads', () => {
    it('names no store until one is configured, then the configured store pages', async () => {
      const before = await server.api().extensionInfo();
      expect(before.stores).toEqual({ chrome: null, edge: null, firefox: null });
      const configured = await startServer(engine, {
        EXTENSION_CHROME_URL: 'https://chromewebstore.google.com/detail/linkwise/abc',
        EXTENSION_FIREFOX_URL: 'https://addons.mozilla.org/firefox/addon/linkwise/',
      });
      try {
        expect((await configured.api().extensionInfo()).stores).toEqual({
          chrome: 'https://chromewebstore.google.com/detail/linkwise/abc',
          edge: null,
          firefox: 'https://addons.mozilla.org/firefox/addon/linkwise/',
        });
      } finally {
        await configured.close();
      }
    });

    it('offers exactly the packages the build produced', async () => {
      const info = await server.api().extensionInfo();
      for (const browser of ['chrome', 'firefox'] as const) {
        const file = EXTENSION_DOWNLOADS[browser];
        const built = existsSync(path.join(EXTENSION_DIST, file));
        const res = await fetch(`${server.url}/extension/download/${file}`);
        if (built) {
          expect(info.downloads[browser]).toBe(`/extension/download/${file}`);
          expect(res.status).toBe(200);
          expect(res.headers.get('content-type')).toBe('application/zip');
          expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${file}"`);
          // Every zip starts with the local file header signature "PK\x03\x04".
          expect(Buffer.from(await res.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 3, 4]));
        } else {
          expect(info.downloads[browser]).toBeNull();
          expect(res.status).toBe(404);
        }
      }
    });
  });
});

describe('EXTENSION_IDS', () => {
  it('accepts Chrome ids and Firefox UUIDs and explains anything else', () => {
    expect(loadConfig({ EXTENSION_IDS: ` ${OTHER_CHROME_ID} ,${FIREFOX_UUID}` }).EXTENSION_IDS).toEqual([
      OTHER_CHROME_ID,
      FIREFOX_UUID,
    ]);
    expect(loadConfig({}).EXTENSION_IDS).toEqual([]);
    expect(() => loadConfig({ EXTENSION_IDS: 'chrome-extension://abc' })).toThrow(
      /EXTENSION_IDS must be comma-separated extension ids/,
    );
    expect(() => loadConfig({ EXTENSION_CHROME_URL: 'http://insecure.example' })).toThrow(/EXTENSION_CHROME_URL/);
  });
});
