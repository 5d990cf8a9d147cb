import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Messages, type ApiClient, type Link } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, freePort, seed, startServer, type TestServer } from './harness.js';

const byTitle = (links: Link[]) => Object.fromEntries(links.map((l) => [l.title, l]));

async function all(api: ApiClient, query: Record<string, string> = {}): Promise<Link[]> {
  return (await api.listLinks({ query: { limit: 100, ...query } })).data;
}

describe.each(engines())('library management on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(engine, { BILLING: 'off' });
  });
  afterAll(() => server.close());

  describe('tags', () => {
    it('lists tags with counts and suggests merging spellings of one word', async () => {
      const { api } = await server.signUp();
      await seed(server, api, [
        { url: 'https://t.example/1', title: 'One', tags: ['Tutorial', 'react'] },
        { url: 'https://t.example/2', title: 'Two', tags: ['tutorials', 'React'] },
        { url: 'https://t.example/3', title: 'Three', tags: ['Tutorial', 'java-script'] },
        { url: 'https://t.example/4', title: 'Four', tags: ['JavaScript'] },
      ]);
      const { data, suggestions } = await api.listTags();
      expect(data.map((t) => [t.name, t.count])).toEqual([
        ['react', 2],
        ['Tutorial', 2],
        ['java-script', 1],
        ['JavaScript', 1],
        ['tutorials', 1],
      ]);
      expect(suggestions).toEqual(
        expect.arrayContaining([
          { from: 'tutorials', into: 'Tutorial', why: 'spelling' },
          { from: 'java-script', into: 'JavaScript', why: 'spelling' },
        ]),
      );
      expect(suggestions).toHaveLength(2);

      // Once no link carries a spelling any more, it is listed with 0 (to be deleted) but not offered for a merge.
      const three = (await api.listLinks({ query: { search: 'Three' } })).data[0]!;
      await api.updateLink({ params: { id: three.id }, body: { tags: ['Tutorial'] } });
      const four = (await api.listLinks({ query: { search: 'Four' } })).data[0]!;
      await api.deleteLink({ params: { id: four.id } });
      const after = await api.listTags();
      expect(after.data.map((t) => [t.name, t.count])).toEqual(
        expect.arrayContaining([
          ['java-script', 0],
          ['JavaScript', 0],
        ]),
      );
      expect(after.suggestions).toEqual([{ from: 'tutorials', into: 'Tutorial', why: 'spelling' }]);
    });

    it('suggests merging tags that mean the same by the offline model, into the more used, and not related ones', async () => {
      const { api } = await server.signUp();
      // The suites run without the transformer's folder, so this is USE-lite: film/movie 0.82 and
      // recipes/cooking 0.55 against its 0.7 threshold (bench/tag-pairs.json, decision 0014).
      await seed(server, api, [
        { url: 'https://s.example/1', title: 'One', tags: ['movie', 'recipes'] },
        { url: 'https://s.example/2', title: 'Two', tags: ['movie', 'cooking'] },
        { url: 'https://s.example/3', title: 'Three', tags: ['film'] },
        { url: 'https://s.example/4', title: 'Four', tags: ['Films'] },
      ]);
      const { suggestions } = await api.listTags();
      expect(suggestions).toContainEqual({ from: 'film', into: 'movie', why: 'meaning' });
      expect(suggestions).toContainEqual({ from: 'Films', into: 'film', why: 'spelling' });
      // Each pair once: Films is a spelling suggestion only, and cooking and recipes stay apart.
      expect(suggestions.filter((s) => s.from === 'Films' || s.into === 'Films')).toHaveLength(1);
      expect(suggestions.some((s) => [s.from, s.into].includes('cooking'))).toBe(false);
      expect(suggestions).toHaveLength(2);
      // A second visit answers the same from the cached vectors.
      expect((await api.listTags()).suggestions).toEqual(suggestions);
    });

    it('renames a tag: the links follow and #tag search finds the new name', async () => {
      const { api } = await server.signUp();
      await seed(server, api, [
        { url: 'https://r.example/1', title: 'One', tags: ['js', 'web'] },
        { url: 'https://r.example/2', title: 'Two', tags: ['web', 'js'] },
      ]);
      const js = (await api.listTags()).data.find((t) => t.name === 'js')!;
      expect(await api.renameTag({ params: { id: js.id }, body: { name: ' #JavaScript ' } })).toEqual({
        success: true,
        data: { name: 'JavaScript', merged: false, links: 2 },
      });
      const links = byTitle(await all(api));
      expect(links.One!.tags).toEqual(['JavaScript', 'web']);
      expect(links.Two!.tags).toEqual(['web', 'JavaScript']);
      expect((await api.search({ query: { query: '#javascript' } })).total).toBe(2);
      expect((await api.search({ query: { query: '#js' } })).total).toBe(0);
      expect(await all(api, { search: '#JavaScript' })).toHaveLength(2);
    });

    it('merges a tag into another by renaming it: each link keeps one copy, counts add up', async () => {
      const { api } = await server.signUp();
      await seed(server, api, [
        { url: 'https://m.example/1', title: 'Both', tags: ['ml', 'machine learning'] },
        { url: 'https://m.example/2', title: 'Short', tags: ['ml'] },
        { url: 'https://m.example/3', title: 'Long', tags: ['Machine Learning', 'ai'] },
      ]);
      const ml = (await api.listTags()).data.find((t) => t.name === 'ml')!;
      const result = await api.renameTag({ params: { id: ml.id }, body: { name: 'MACHINE LEARNING' } });
      expect(result.data).toEqual({ name: 'machine learning', merged: true, links: 3 });
      const { data } = await api.listTags();
      expect(data.map((t) => [t.name, t.count])).toEqual([
        ['machine learning', 3],
        ['ai', 1],
      ]);
      const links = byTitle(await all(api));
      expect(links.Both!.tags).toEqual(['machine learning']);
      expect(links.Short!.tags).toEqual(['machine learning']);
      expect(links.Long!.tags).toEqual(['machine learning', 'ai']);
      expect((await api.search({ query: { query: '#ml' } })).total).toBe(0);
    });

    it('deletes a tag from every link and keeps the links', async () => {
      const { api } = await server.signUp();
      await seed(server, api, [
        { url: 'https://d.example/1', title: 'One', tags: ['old', 'keep'] },
        { url: 'https://d.example/2', title: 'Two', tags: ['old'] },
      ]);
      const old = (await api.listTags()).data.find((t) => t.name === 'old')!;
      expect((await api.deleteTag({ params: { id: old.id } })).data).toEqual({ links: 2 });
      expect((await all(api)).map((l) => l.tags).sort()).toEqual([[], ['keep']]);
      expect((await api.listTags()).data.map((t) => t.name)).toEqual(['keep']);
      expect((await api.search({ query: { query: '#old' } })).total).toBe(0);
    });

    it("answers 404 for another user's tag and refuses an empty name", async () => {
      const owner = await server.signUp();
      await seed(server, owner.api, [{ url: 'https://o.example/1', title: 'Mine', tags: ['private'] }]);
      const tag = (await owner.api.listTags()).data[0]!;
      const other = await server.signUp();
      expect((await failure(other.api.renameTag({ params: { id: tag.id }, body: { name: 'x' } }))).status).toBe(404);
      expect((await failure(other.api.deleteTag({ params: { id: tag.id } }))).status).toBe(404);
      const empty = await failure(owner.api.renameTag({ params: { id: tag.id }, body: { name: ' # ' } }));
      expect([empty.status, empty.message]).toEqual([400, 'Tag name is required']);
      expect((await owner.api.listTags()).data.map((t) => t.name)).toEqual(['private']);
    });
  });

  describe('categories', () => {
    it('renames a category on every link, and renaming onto an existing one merges them', async () => {
      const { api } = await server.signUp();
      await seed(server, api, [
        { url: 'https://c.example/1', title: 'One', category: 'Dev' },
        { url: 'https://c.example/2', title: 'Two', category: 'Dev' },
        { url: 'https://c.example/3', title: 'Three', category: 'Development' },
      ]);
      expect((await api.renameCategory({ body: { from: 'Dev', to: 'Development' } })).data).toEqual({ links: 2 });
      expect((await api.linkCategories()).data).toEqual(['Development']);
      expect(await all(api, { category: 'Development' })).toHaveLength(3);
      expect((await failure(api.renameCategory({ body: { from: 'Nope', to: 'X' } }))).status).toBe(404);
    });
  });

  describe('bulk actions', () => {
    it('marks read, read later, sets a category, adds and removes tags, deletes; skips other users’ links', async () => {
      const { api } = await server.signUp();
      const [a, b, c] = await seed(server, api, [
        { url: 'https://b.example/a', title: 'A', tags: ['x'] },
        { url: 'https://b.example/b', title: 'B' },
        { url: 'https://b.example/c', title: 'C' },
      ]);
      const other = await server.signUp();
      const [theirs] = await seed(server, other.api, [{ url: 'https://b.example/theirs', title: 'Theirs' }]);
      const ids = [a!.id, b!.id, theirs!.id];

      expect((await api.bulkLinks({ body: { action: 'mark-read', ids } })).data).toEqual({ affected: 2 });
      expect((await api.bulkLinks({ body: { action: 'read-later', ids } })).data).toEqual({ affected: 2 });
      await api.bulkLinks({ body: { action: 'set-category', ids, category: ' Reading ' } });
      await api.bulkLinks({ body: { action: 'add-tags', ids, tags: ['#later', 'X'] } });
      let links = byTitle(await all(api));
      expect(links.A).toMatchObject({ isRead: true, isReadLater: true, category: 'Reading', tags: ['x', 'later'] });
      expect(links.B).toMatchObject({ isRead: true, isReadLater: true, category: 'Reading', tags: ['later', 'x'] });
      expect(links.C).toMatchObject({ isRead: false, isReadLater: false, category: null, tags: [] });

      await api.bulkLinks({ body: { action: 'remove-tags', ids, tags: ['LATER'] } });
      await api.bulkLinks({ body: { action: 'mark-unread', ids: [a!.id] } });
      await api.bulkLinks({ body: { action: 'set-category', ids: [b!.id], category: null } });
      links = byTitle(await all(api));
      expect(links.A).toMatchObject({ isRead: false, tags: ['x'] });
      expect(links.B).toMatchObject({ category: null, tags: ['x'] });

      expect((await api.bulkLinks({ body: { action: 'delete', ids } })).data).toEqual({ affected: 2 });
      expect((await all(api)).map((l) => l.id)).toEqual([c!.id]);
      expect((await other.api.getLink({ params: { id: theirs!.id } })).title).toBe('Theirs');
      expect((await other.api.getLink({ params: { id: theirs!.id } })).isRead).toBe(false);
    });

    it('adds tags only where a link has room, says how many could not take them all, and leaves no unused tag', async () => {
      const { api } = await server.signUp();
      const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
      const [full, nearly, roomy] = await seed(server, api, [
        { url: 'https://full.example/a', title: 'Full', tags: fifty },
        { url: 'https://full.example/b', title: 'Nearly', tags: fifty.slice(0, 49) },
        { url: 'https://full.example/c', title: 'Roomy', tags: ['t0'] },
      ]);
      const tagNames = async () => (await api.listTags()).data.map((t) => t.name).sort();
      const before = await tagNames();

      const none = await api.bulkLinks({ body: { action: 'add-tags', ids: [full!.id], tags: ['brand-new'] } });
      expect(none.data).toEqual({ affected: 0, tagLimited: 1 });
      expect(await tagNames()).toEqual(before);

      const some = await api.bulkLinks({
        body: { action: 'add-tags', ids: [full!.id, nearly!.id, roomy!.id], tags: ['first', 'second', 't0'] },
      });
      expect(some.data).toEqual({ affected: 1, tagLimited: 2 });
      const links = byTitle(await all(api));
      expect(links.Full!.tags).toEqual(fifty);
      expect(links.Nearly!.tags).toEqual([...fifty.slice(0, 49), 'first']);
      expect(links.Roomy!.tags).toEqual(['t0', 'first', 'second']);
      expect(await tagNames()).toEqual([...before, 'first', 'second'].sort());

      // Commas split names as everywhere else, and the split list obeys the same 50-tag cap.
      const letters = [...'abcdefghijklmnopqrst'];
      const packed = ['p', 'q', 'r'].map((prefix) => letters.map((l) => `${prefix}${l}`).join(','));
      const commas = await failure(api.bulkLinks({ body: { action: 'add-tags', ids: [roomy!.id], tags: packed } }));
      expect([commas.status, commas.message]).toEqual([400, 'A link can have at most 50 tags']);
      expect(await tagNames()).toEqual([...before, 'first', 'second'].sort());
    });

    it('queues re-analysis for the chosen links and validates the request', async () => {
      const { api } = await server.signUp();
      const [a] = await seed(server, api, [{ url: 'https://q.example/a', title: 'A' }]);
      await server.database.db
        .updateTable('links')
        .set({ analysis_status: 'failed' })
        .where('id', '=', a!.id)
        .execute();
      expect((await api.bulkLinks({ body: { action: 'reanalyze', ids: [a!.id] } })).data).toEqual({ affected: 1 });
      const link = await api.getLink({ params: { id: a!.id } });
      expect(link.analysisStatus).toBe('pending');
      expect(link.analysisStartedAt).toBe(new Date(server.clock.now()).toISOString());
      const empty = await failure(api.bulkLinks({ body: { action: 'delete', ids: [] } }));
      expect([empty.status, empty.message]).toEqual([400, 'Select at least one link']);
    });
  });

  describe('usage counts', () => {
    it('counts opens of own links once each, and searches per calendar month', async () => {
      const { api } = await server.signUp();
      const [a, b] = await seed(server, api, [
        { url: 'https://u.example/a', title: 'Alpha page' },
        { url: 'https://u.example/b', title: 'Beta page' },
      ]);
      expect((await api.usageCounts()).data).toEqual({ totalClicks: 0, searchesThisMonth: 0 });
      await api.countClick({ params: { id: a!.id } });
      await api.countClick({ params: { id: a!.id } });
      await api.countClick({ params: { id: b!.id } });
      await api.search({ query: { query: 'alpha' } });
      await api.search({ query: { query: '#none' } });
      expect((await api.usageCounts()).data).toEqual({ totalClicks: 3, searchesThisMonth: 2 });

      const other = await server.signUp();
      expect((await failure(other.api.countClick({ params: { id: a!.id } }))).status).toBe(404);
      expect((await other.api.usageCounts()).data).toEqual({ totalClicks: 0, searchesThisMonth: 0 });
      // A refused search (too short) is not counted.
      await failure(api.search({ query: { query: 'a' } }));

      const saved = server.clock.current;
      server.clock.current = Date.parse('2026-12-01T00:00:01Z');
      try {
        expect((await api.usageCounts()).data).toEqual({ totalClicks: 3, searchesThisMonth: 0 });
        await api.search({ query: { query: 'beta' } });
        expect((await api.usageCounts()).data.searchesThisMonth).toBe(1);
      } finally {
        server.clock.current = saved;
      }
      expect((await api.usageCounts()).data.searchesThisMonth).toBe(2);
    });

    it('removes the counts with the account', async () => {
      const { api, userId } = await server.signUp();
      const [a] = await seed(server, api, [{ url: 'https://x.example/a', title: 'A' }]);
      await api.countClick({ params: { id: a!.id } });
      await api.search({ query: { query: 'anything' } });
      await server.database.db.deleteFrom('users').where('id', '=', userId).execute();
      const clicks = await server.database.db
        .selectFrom('link_clicks')
        .selectAll()
        .where('user_id', '=', userId)
        .execute();
      const searches = await server.database.db
        .selectFrom('search_counts')
        .selectAll()
        .where('user_id', '=', userId)
        .execute();
      expect([clicks.length, searches.length]).toEqual([0, 0]);
    });
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A page with an icon, one whose icon is too large, anything else 404; and a closed port. */
async function serveFailures(): Promise<{ base: string; closed: string; server: Server }> {
  const server = createServer((req, res) => {
    const page = (icon: string) =>
      `<html><head><title>Icon page</title><link rel="icon" href="${icon}"></head><body><p>Words about icons.</p></body></html>`;
    if (req.url === '/with-icon') {
      res.setHeader('content-type', 'text/html');
      return res.end(page('/icon.png'));
    }
    if (req.url === '/with-big-icon') {
      res.setHeader('content-type', 'text/html');
      return res.end(page('/big.png'));
    }
    if (req.url === '/icon.png' || req.url === '/big.png') {
      res.setHeader('content-type', 'image/png');
      return res.end(req.url === '/icon.png' ? PNG : Buffer.alloc(64 * 1024, 1));
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const closed = `http://127.0.0.1:${await freePort()}`;
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed, server };
}

describe.each(engines())('analysis state and icons on %s', (engine) => {
  let server: TestServer;
  let pages: Awaited<ReturnType<typeof serveFailures>>;

  beforeAll(async () => {
    pages = await serveFailures();
    server = await startServer(engine, { FETCH_ALLOW_PRIVATE: 'true', JOBS_ENABLED: 'true', BILLING: 'off' });
  });
  afterAll(async () => {
    await server.close();
    pages.server.close();
  });

  async function until(api: ApiClient, id: string, check: (l: Link) => boolean): Promise<Link> {
    for (let i = 0; i < 300; i++) {
      const link = await api.getLink({ params: { id } });
      if (check(link)) return link;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the link never reached the expected state');
  }

  const attempts = async (id: string) => {
    const rows = await server.database.db.selectFrom('jobs').select(['payload', 'attempts', 'status']).execute();
    return rows.find((r) => r.payload.includes(id));
  };

  it('fails a page that answers 404 at the first attempt, with the status in the reason', async () => {
    const { api } = await server.signUp();
    const created = await api.createLink({ body: { url: `${pages.base}/gone`, title: 'Gone' } });
    expect(created.analysisStatus).toBe('pending');
    expect(created.analysisStartedAt).toBe(new Date(server.clock.now()).toISOString());
    const link = await until(api, created.id, (l) => l.analysisStatus !== 'pending');
    expect(link).toMatchObject({ analysisStatus: 'failed', analysisFailure: { reason: 'http-error', status: 404 } });
    expect(link.analysisStartedAt).toBeNull();
    expect(await attempts(created.id)).toMatchObject({ attempts: 1, status: 'failed' });
  });

  it('retries an unreachable host twice (5 s, then 15 s) and then names the reason; retry queues it again', async () => {
    const { api } = await server.signUp();
    const created = await api.createLink({ body: { url: `${pages.closed}/page`, title: 'Closed' } });
    // Each failed attempt is rescheduled (queued again) before the clock moves past its delay.
    for (const [attempt, wait] of [
      [1, 5_000],
      [2, 15_000],
    ] as const) {
      for (let i = 0; i < 300; i++) {
        const job = await attempts(created.id);
        if (job?.attempts === attempt && job.status === 'queued') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const job = await server.database.db
        .selectFrom('jobs')
        .select('run_at')
        .where('payload', 'like', `%${created.id}%`)
        .executeTakeFirstOrThrow();
      expect(Number(job.run_at) - server.clock.now()).toBe(wait);
      server.clock.advance(wait);
    }
    const link = await until(api, created.id, (l) => l.analysisStatus !== 'pending');
    expect(link.analysisFailure).toEqual({ reason: 'unreachable', status: null });
    expect(await attempts(created.id)).toMatchObject({ attempts: 3, status: 'failed' });

    expect((await api.reanalyzeLink({ params: { id: created.id } })).data).toEqual({ queued: 1 });
    const again = await api.getLink({ params: { id: created.id } });
    expect(again).toMatchObject({ analysisStatus: 'pending', analysisFailure: null });
  });

  it('keeps the site icon as a data URL (the browser never asks the site), and none when it is too large', async () => {
    const { api } = await server.signUp();
    const small = await api.createLink({ body: { url: `${pages.base}/with-icon` } });
    const big = await api.createLink({ body: { url: `${pages.base}/with-big-icon` } });
    const done = await until(api, small.id, (l) => l.analysisStatus === 'done');
    expect(done.faviconData).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(done.favicon).toBe(`${pages.base}/icon.png`);
    expect((await until(api, big.id, (l) => l.analysisStatus === 'done')).faviconData).toBeNull();
  });

  it('names the reason in the add dialog’s Analyze error', async () => {
    const { api } = await server.signUp();
    const missing = await failure(api.analyzeLink({ body: { url: `${pages.base}/missing` } }));
    expect([missing.status, missing.code, missing.message]).toEqual([
      422,
      'FETCH_FAILED',
      `${Messages.analysisFailed}: The page answered 404 (not found)`,
    ]);
    expect(missing.details).toEqual({ reason: 'http-error', status: 404 });
    const closed = await failure(api.analyzeLink({ body: { url: `${pages.closed}/` } }));
    expect(closed.message).toBe(`${Messages.analysisFailed}: The site could not be reached`);
    expect(closed.details).toEqual({ reason: 'unreachable', status: null });
  });
});
