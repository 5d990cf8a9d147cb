import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, raw, startServer, type TestServer } from './harness.js';

const NUL = 'a\u0000b';
const LONE = 'tag\ud800';

describe.each(engines())('text no database can hold, on %s', (engine) => {
  let server: TestServer;
  let token: string;
  let linkId: string;
  beforeAll(async () => {
    server = await startServer(engine);
    const user = await server.signUp('hardening');
    token = user.token;
    linkId = (await user.api.createLink({ body: { url: 'https://example.com/a', title: 'A' } })).id;
  });
  afterAll(() => server.close());

  const body = (value: unknown) => JSON.stringify(value);

  it('answers 400 VALIDATION_ERROR for a NUL byte in any text field, naming the field', async () => {
    for (const [path, method, payload, field] of [
      ['/api/links', 'POST', { url: 'https://example.com/n', title: NUL }, 'title'],
      ['/api/links', 'POST', { url: 'https://example.com/n', title: 'T', tags: ['ok', NUL] }, 'tags.1'],
      [`/api/links/${linkId}`, 'PUT', { notes: NUL }, 'notes'],
      ['/api/auth/login', 'POST', { email: 'x@example.com', password: NUL }, 'password'],
    ] as const) {
      const res = await raw(server, method, path, { token, body: body(payload) });
      expect(res.status, path).toBe(400);
      expect(res.json()).toEqual({
        error: 'Text must not contain NUL characters',
        code: 'VALIDATION_ERROR',
        details: { fields: { [field]: 'Text must not contain NUL characters' } },
      });
    }
  });

  it('answers 400 for a NUL byte in a filter and 404 for one in a path id', async () => {
    const filter = await raw(server, 'GET', `/api/links?category=${encodeURIComponent(NUL)}`, { token });
    expect([filter.status, (filter.json() as { code: string }).code]).toEqual([400, 'VALIDATION_ERROR']);
    const search = await raw(server, 'GET', `/api/search?q=${encodeURIComponent(`ab${NUL}`)}`, { token });
    expect(search.status).toBe(400);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await raw(server, method, `/api/links/${encodeURIComponent(NUL)}`, {
        token,
        ...(method === 'PUT' && { body: '{}' }),
      });
      expect([res.status, (res.json() as { code: string }).code], method).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('answers 400 for a lone UTF-16 surrogate in a tag, a key or a title', async () => {
    // JSON.stringify escapes a lone surrogate as \ud800, which is how a client sends one.
    for (const payload of [
      { url: 'https://example.com/s', title: 'T', tags: [LONE] },
      { url: 'https://example.com/s', title: `x\udc00` },
      { url: 'https://example.com/s', title: 'T', ['\ud800']: 1 },
    ]) {
      const res = await raw(server, 'POST', '/api/links', { token, body: body(payload) });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Text must be valid Unicode' });
    }
    const listed = await server.api(token).listLinks({});
    expect(listed.data.map((l) => l.id)).toEqual([linkId]);
  });

  it('still accepts every well-formed character, emoji pairs included', async () => {
    const res = await raw(server, 'POST', '/api/links', {
      token,
      body: body({ url: 'https://example.com/e', title: 'Émoji 😀 \u2028 ok', tags: ['日本語', '😀'] }),
    });
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ title: 'Émoji 😀 \u2028 ok' });
  });

  it('refuses a body nested deeper than any schema without a 5xx', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const res = await raw(server, 'POST', '/api/links', {
      token,
      body: `{"url":"https://example.com/d","tags":${deep}}`,
    });
    expect(res.status).toBe(400);
  });
});
