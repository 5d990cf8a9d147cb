import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Messages } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus, serveCorpus } from './corpus.js';
const ANALYZE_LINK_JOB = 'analyze-link';
import { engines, failure, settled, startServer, type TestServer } from './harness.js';

const corpus = loadCorpus();

/** Extra loopback pages: a PDF, a page that is always 404, and a redirect. */
async function serveExtras(): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url?.endsWith('.pdf')) {
      res.setHeader('content-type', 'application/pdf');
      return res.end('%PDF-1.4');
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(!corpus).each(engines())('link analysis on %s', (engine) => {
  let server: TestServer;
  let pages: Awaited<ReturnType<typeof serveCorpus>>;

  beforeAll(async () => {
    pages = await serveCorpus(corpus ?? []);
    server = await startServer(engine, { FETCH_ALLOW_PRIVATE: 'true', JOBS_ENABLED: 'true', BILLING: 'off' });
  });
  afterAll(async () => {
    await server.close();
    await pages.close();
  });

  it('proposes title, description, category and at most 5 tags for the add dialog', async () => {
    const { api } = await server.signUp();
    const { success, data } = await api.analyzeLink({ body: { url: pages.url('bbc') } });
    expect(success).toBe(true);
    expect(data.title).toBe('The man who built a $1bn firm in his basement');
    expect(data.description).toMatch(/^How an IT worker quit his day job/);
    expect(data.category).toBe('Business');
    expect(data.tags.length).toBeGreaterThan(0);
    expect(data.tags.length).toBeLessThanOrEqual(5);
    expect(data.tags.every((t) => t === t.trim() && !t.startsWith('#'))).toBe(true);
    expect(typeof data.isReadLater).toBe('boolean');
    const recipe = await api.analyzeLink({ body: { url: pages.url('smitten-kitchen') } });
    expect(recipe.data.category).toBe('Recipes');
    // Nothing else comes close for a recipe: no second category is offered.
    expect(recipe.data).not.toHaveProperty('otherCategory');
  });

  it('prefers the user’s existing tag spelling and categories', async () => {
    const { api } = await server.signUp();
    await api.createLink({
      body: { url: 'https://example.com/own', title: 'Own', tags: ['hackerrank'], category: 'Hiring' },
    });
    const { data } = await api.analyzeLink({ body: { url: pages.url('forbes') } });
    expect(data.tags).toContain('hackerrank');
    expect(data.tags).not.toContain('HackerRank');
  });

  it('enriches a new link in the background: fills empty fields, stores text and vector', async () => {
    const { api, token } = await server.signUp();
    const created = await api.createLink({ body: { url: pages.url('smitten-kitchen') } });
    expect(created.analysisStatus).toBe('pending');
    const link = await settled(server, token, created.id);
    expect(link).toMatchObject({ analysisStatus: 'done', title: 'cucumber yogurt raita salad', category: 'Recipes' });
    expect(link.description).toMatch(/^Cucumber Yogurt Raita Salad/);
    expect(link.aiDescription).toBeTruthy();
    expect(link.favicon).toMatch(/^http/);
    expect(link.tags.length).toBeGreaterThan(0);
    expect(link.tags.length).toBeLessThanOrEqual(5);
    const { db } = server.database;
    const vector = await db
      .selectFrom('embeddings')
      .selectAll()
      .where('link_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(vector).toMatchObject({ model: 'use-lite-512', dims: 512 });
    expect(vector.vector.byteLength).toBe(512 * 4);
    const page = await db
      .selectFrom('page_contents')
      .selectAll()
      .where('link_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(page.text).toContain('cucumber');
  });

  it('never overwrites what the user typed', async () => {
    const { api, token } = await server.signUp();
    const created = await api.createLink({
      body: {
        url: pages.url('bbc'),
        title: 'My title',
        description: 'My words',
        category: 'Reading',
        tags: ['mine'],
      },
    });
    const link = await settled(server, token, created.id);
    expect(link).toMatchObject({
      analysisStatus: 'done',
      title: 'My title',
      description: 'My words',
      category: 'Reading',
      tags: ['mine'],
    });
    expect(link.aiDescription).toMatch(/IT worker/);
  });

  it('re-analyses one link or all of a user’s links; other users’ links answer 404', async () => {
    const { api, token } = await server.signUp();
    const a = await api.createLink({ body: { url: pages.url('github') } });
    const b = await api.createLink({ body: { url: pages.url('medium') } });
    await settled(server, token, a.id);
    await settled(server, token, b.id);
    expect(await api.reanalyzeLink({ params: { id: a.id } })).toEqual({ success: true, data: { queued: 1 } });
    expect((await api.getLink({ params: { id: a.id } })).analysisStatus).toBe('pending');
    expect((await settled(server, token, a.id)).analysisStatus).toBe('done');
    expect(await api.reanalyzeLinks()).toEqual({ success: true, data: { queued: 2 } });
    await settled(server, token, a.id);
    expect((await settled(server, token, b.id)).title).toMatch(/webpack 3/);
    const other = await server.signUp('other');
    const error = await failure(other.api.reanalyzeLink({ params: { id: a.id } }));
    expect(error.status).toBe(404);
  });
});

describe.each(engines())('link analysis without the page corpus on %s', (engine) => {
  let server: TestServer;
  let extras: Awaited<ReturnType<typeof serveExtras>>;

  beforeAll(async () => {
    extras = await serveExtras();
    server = await startServer(engine, { FETCH_ALLOW_PRIVATE: 'true', JOBS_ENABLED: 'true', BILLING: 'off' });
  });
  afterAll(async () => {
    await server.close();
    extras.server.close();
  });

  it('titles non-HTML files from their URL without an error', async () => {
    const { api } = await server.signUp();
    const { data } = await api.analyzeLink({ body: { url: `${extras.base}/files/annual-report-2025.pdf` } });
    expect(data.title).toBe('Annual report 2025 (127.0.0.1)');
  });

  it('answers 422 FETCH_FAILED with the spec wording when the page cannot be fetched', async () => {
    const { api } = await server.signUp();
    const error = await failure(api.analyzeLink({ body: { url: `${extras.base}/missing` } }));
    expect(error.status).toBe(422);
    expect(error.code).toBe('FETCH_FAILED');
    expect(error.message).toBe(`${Messages.analysisFailed}: The page answered 404 (not found)`);
  });

  it('validates the URL with the spec wording', async () => {
    const { api } = await server.signUp();
    const error = await failure(api.analyzeLink({ body: { url: '  ' } }));
    expect(error.status).toBe(400);
    expect(error.message).toBe(Messages.urlRequiredForAnalysis);
    expect((await failure(server.api().analyzeLink({ body: { url: `${extras.base}/x` } }))).status).toBe(401);
  });
});

describe.each(engines())('link analysis address checks on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, { JOBS_ENABLED: 'true', BILLING: 'off' });
  });
  afterAll(() => server.close());

  it('answers 422 BLOCKED_ADDRESS for private addresses when FETCH_ALLOW_PRIVATE is off', async () => {
    const { api } = await server.signUp();
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://[::1]:3000/',
      'http://localhost/',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const error = await failure(api.analyzeLink({ body: { url } }));
      expect(error.status, url).toBe(422);
      expect(error.code, url).toBe('BLOCKED_ADDRESS');
      expect(error.message).toBe(`${Messages.analysisFailed}: This address is on a private network and is not fetched`);
    }
  });

  it('marks a link to a blocked address failed at once and still gives it a vector', async () => {
    const { api, token } = await server.signUp();
    const created = await api.createLink({ body: { url: 'http://10.1.2.3/admin', title: 'Router admin' } });
    const link = await settled(server, token, created.id);
    expect(link).toMatchObject({ analysisStatus: 'failed', title: 'Router admin' });
    const job = await server.database.db.selectFrom('jobs').selectAll().executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    const vector = await server.database.db
      .selectFrom('embeddings')
      .select('dims')
      .where('link_id', '=', created.id)
      .executeTakeFirst();
    expect(vector?.dims).toBe(512);
  });

  it('limits analyses per user', async () => {
    const { api } = await server.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await failure(api.analyzeLink({ body: { url: `http://127.0.0.1:9/${i}` } }))).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another user is not affected.
    const other = await server.signUp();
    expect((await failure(other.api.analyzeLink({ body: { url: 'http://127.0.0.1:9/' } }))).status).toBe(422);
  });
});

describe.each(engines())('re-analysis queue on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(engine); // jobs stay queued: no worker runs them
  });
  afterAll(() => server.close());

  it('queues one job per link however often re-analysis is asked for; a finished job does not count', async () => {
    const { api } = await server.signUp();
    const a = await api.createLink({ body: { url: 'https://queue.example/a' } });
    const b = await api.createLink({ body: { url: 'https://queue.example/b' } });
    const queued = async (linkId: string) => {
      const rows = await server.database.db
        .selectFrom('jobs')
        .select('payload')
        .where('type', '=', ANALYZE_LINK_JOB)
        .where('status', '=', 'queued')
        .execute();
      return rows.filter((r) => (JSON.parse(r.payload) as { linkId: string }).linkId === linkId).length;
    };
    expect([await queued(a.id), await queued(b.id)]).toEqual([1, 1]);
    expect(await api.reanalyzeLinks()).toEqual({ success: true, data: { queued: 2 } });
    expect(await api.reanalyzeLinks()).toEqual({ success: true, data: { queued: 2 } });
    expect(await api.reanalyzeLink({ params: { id: a.id } })).toEqual({ success: true, data: { queued: 1 } });
    expect([await queued(a.id), await queued(b.id)]).toEqual([1, 1]);
    // Once a's job has run, asking again queues a new one.
    await server.database.db
      .updateTable('jobs')
      .set({ status: 'done' })
      .where('type', '=', ANALYZE_LINK_JOB)
      .where('payload', 'like', `%${a.id}%`)
      .execute();
    expect(await queued(a.id)).toBe(0);
    await api.reanalyzeLink({ params: { id: a.id } });
    expect([await queued(a.id), await queued(b.id)]).toEqual([1, 1]);
    expect((await api.getLink({ params: { id: a.id } })).analysisStatus).toBe('pending');
  });
});
