import {
  Messages,
  type ApiClient,
  type EncryptedCredential,
  type Link,
  type LinkCreateInput,
  type LinkListQueryInput,
} from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, raw, setUpVault, startServer, type TestServer } from './harness.js';

const credential = (id: string): EncryptedCredential => ({ id, iv: 'aXYtaXY=', ciphertext: `Y2lwaGVy${id}`, v: 1 });

describe.each(engines())('GET /api/links on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  /** Saves links one second apart, so creation order is the order given. */
  async function seed(api: ApiClient, links: LinkCreateInput[], on: TestServer = server): Promise<Link[]> {
    const saved: Link[] = [];
    for (const body of links) {
      on.clock.advance(1000);
      saved.push(await api.createLink({ body }));
    }
    return saved;
  }

  const titles = async (api: ApiClient, query: LinkListQueryInput = {}) =>
    (await api.listLinks({ query: { limit: 100, ...query } })).data.map((l) => l.title);

  describe('filters and search', () => {
    let api: ApiClient;

    beforeAll(async () => {
      ({ api } = await server.signUp('filters'));
      await setUpVault(api);
      const [, design, , , jsx] = await seed(api, [
        {
          url: 'https://one.example/react',
          title: 'React hooks guide',
          category: 'Development',
          tags: ['react', 'frontend'],
          isReadLater: true,
        },
        {
          url: 'https://two.example/systems',
          title: 'Design systems',
          category: 'Design',
          description: 'Tokens and components',
        },
        {
          url: 'https://three.example/pg',
          title: 'Postgres tuning',
          category: 'Development',
          notes: 'check the autovacuum settings',
          credentials: [credential('pg')],
        },
        { url: 'https://cooking.example/pasta', title: 'Pasta', tags: ['recipes'] },
        { url: 'https://five.example/jsx', title: 'JSX in depth', tags: ['jsx'], isReadLater: true },
        { url: 'https://six.example/coverage', title: 'Reaching 100% coverage' },
      ]);
      for (const link of [design, jsx]) {
        await api.updateLink({ params: { id: link?.id ?? '' }, body: { isRead: true } });
      }
    });

    it('lists everything newest first when no filter is given', async () => {
      const list = await api.listLinks();
      expect(list.data.map((l) => l.title)).toEqual([
        'Reaching 100% coverage',
        'JSX in depth',
        'Pasta',
        'Postgres tuning',
        'Design systems',
        'React hooks guide',
      ]);
      expect([list.total, list.actualTotal, list.page, list.limit]).toEqual([6, 6, 1, 24]);
    });

    it('filters by category, exactly', async () => {
      expect(await titles(api, { category: 'Development' })).toEqual(['Postgres tuning', 'React hooks guide']);
      expect(await titles(api, { category: 'Design' })).toEqual(['Design systems']);
      expect(await titles(api, { category: 'Nothing here' })).toEqual([]);
    });

    it('filters by isRead true and false', async () => {
      expect(await titles(api, { isRead: 'true' })).toEqual(['JSX in depth', 'Design systems']);
      expect(await titles(api, { isRead: 'false' })).toEqual([
        'Reaching 100% coverage',
        'Pasta',
        'Postgres tuning',
        'React hooks guide',
      ]);
    });

    it('filters by isReadLater true and false', async () => {
      expect(await titles(api, { isReadLater: 'true' })).toEqual(['JSX in depth', 'React hooks guide']);
      expect(await titles(api, { isReadLater: 'false' })).toEqual([
        'Reaching 100% coverage',
        'Pasta',
        'Postgres tuning',
        'Design systems',
      ]);
    });

    it('filters by hasCredentials true and false', async () => {
      expect(await titles(api, { hasCredentials: 'true' })).toEqual(['Postgres tuning']);
      expect(await titles(api, { hasCredentials: 'false' })).toHaveLength(5);
    });

    it('combines filters and reports the filtered total beside the owned total', async () => {
      const list = await api.listLinks({ query: { category: 'Development', isReadLater: 'true' } });
      expect(list.data.map((l) => l.title)).toEqual(['React hooks guide']);
      expect([list.total, list.actualTotal]).toEqual([1, 6]);
      expect(list.subscription).toEqual({ canAddLinks: true, totalLinks: 6, linkLimit: 30, remainingLinks: 24 });
      const none = await api.listLinks({ query: { isRead: 'true', hasCredentials: 'true' } });
      expect([none.data, none.total, none.actualTotal]).toEqual([[], 0, 6]);
    });

    it('ignores boolean filters that are not the literal words', async () => {
      for (const value of ['yes', '1', 'TRUE', '']) {
        expect((await api.listLinks({ query: { isRead: value } })).total, value).toBe(6);
      }
    });

    it('searches title, description, url, notes and tags, case-insensitively', async () => {
      expect(await titles(api, { search: 'hooks' })).toEqual(['React hooks guide']);
      expect(await titles(api, { search: 'HOOKS' })).toEqual(['React hooks guide']);
      expect(await titles(api, { search: 'tokens' })).toEqual(['Design systems']);
      expect(await titles(api, { search: 'cooking.example' })).toEqual(['Pasta']);
      expect(await titles(api, { search: 'AUTOVACUUM' })).toEqual(['Postgres tuning']);
      expect(await titles(api, { search: 'frontend' })).toEqual(['React hooks guide']);
      expect(await titles(api, { search: 'recipes' })).toEqual(['Pasta']);
      expect(await titles(api, { search: '  hooks  ' })).toEqual(['React hooks guide']);
      expect(await titles(api, { search: 'nothing matches this' })).toEqual([]);
    });

    it('matches a plain word inside tags but #tag only as a whole tag', async () => {
      expect(await titles(api, { search: 'js' })).toEqual(['JSX in depth']);
      expect(await titles(api, { search: '#jsx' })).toEqual(['JSX in depth']);
      expect(await titles(api, { search: '#JSX' })).toEqual(['JSX in depth']);
      expect(await titles(api, { search: '#js' })).toEqual([]);
      expect(await titles(api, { search: '#react' })).toEqual(['React hooks guide']);
      // A tag search ignores titles: 'hooks' is only a word in a title.
      expect(await titles(api, { search: '#hooks' })).toEqual([]);
    });

    it('#tag is the search route’s tag query: driven from the tag’s rows, the user’s own, with filters and count', async () => {
      // Another user's identical tag never leaks into this list.
      const other = await server.signUp('other-tags');
      await seed(other.api, [{ url: 'https://other.example/jsx', title: 'Someone else’s JSX', tags: ['jsx'] }]);
      const from = server.queries();
      const list = await api.listLinks({ query: { search: '#jsx' } });
      expect([list.data.map((l) => l.title), list.total]).toEqual([['JSX in depth'], 1]);
      const tagged = server.statements(from).filter((q) => /from "links"/.test(q));
      expect(tagged.length).toBeGreaterThanOrEqual(2); // the page and its count
      for (const q of tagged) {
        expect(q).toContain('links.id in (select lt.link_id from link_tags lt join tags t on t.id = lt.tag_id');
        expect(q).not.toMatch(/exists/i);
      }
      // The same links as the search route's #tag.
      const searched = await api.search({ query: { query: '#jsx' } });
      expect(searched.data.map((l) => l.id)).toEqual(list.data.map((l) => l.id));
      // Combined with the other filters and counted.
      expect((await api.listLinks({ query: { search: '#jsx', isReadLater: 'true' } })).total).toBe(1);
      expect((await api.listLinks({ query: { search: '#jsx', isReadLater: 'false' } })).total).toBe(0);
    });

    it('matches words: % and _ are separators, never patterns', async () => {
      expect(await titles(api, { search: '100%' })).toEqual(['Reaching 100% coverage']);
      expect(await titles(api, { search: '%' })).toEqual([]);
      expect(await titles(api, { search: '_' })).toEqual([]);
      expect(await titles(api, { search: 'React%guide' })).toEqual(['React hooks guide']);
      expect(await titles(api, { search: 'Rea_t' })).toEqual([]);
    });

    it('combines search with filters, and counts only the matches in total', async () => {
      const list = await api.listLinks({ query: { search: 'example', isRead: 'false', limit: 2 } });
      expect(list.data.map((l) => l.title)).toEqual(['Reaching 100% coverage', 'Pasta']);
      expect([list.total, list.actualTotal]).toEqual([4, 6]);
      expect(await titles(api, { search: 'e', category: 'Development', hasCredentials: 'true' })).toEqual([
        'Postgres tuning',
      ]);
    });

    it('does not let search text reach the SQL', async () => {
      for (const search of ["' or 1=1 --", '"; drop table links; --', '\\', "%' escape '"]) {
        expect(await titles(api, { search }), search).toEqual([]);
      }
      expect((await api.listLinks()).total).toBe(6);
    });

    it('matches non-ASCII letters case-insensitively on both engines', async () => {
      const { api: other } = await server.signUp('unicode');
      await other.createLink({ body: { url: 'https://cafe.example/ueber', title: 'CAFÉ ÜBER Straße' } });
      await other.createLink({ body: { url: 'https://zoo.example/zz', title: 'zebra' } });
      for (const search of ['café', 'CAFÉ', 'über', 'ÜBER']) {
        expect(await titles(other, { search }), search).toEqual(['CAFÉ ÜBER Straße']);
      }
      // The stored title sort key folds the same way on both engines.
      const row = await server.database.db
        .selectFrom('links')
        .select('title_key')
        .where('title', '=', 'CAFÉ ÜBER Straße')
        .executeTakeFirstOrThrow();
      expect(row.title_key).toBe('café über straße');
    });
  });

  describe('sorting', () => {
    let api: ApiClient;

    beforeAll(async () => {
      ({ api } = await server.signUp('sorting'));
      // smart scores: delta 1, Alpha 2, charlie 3, Bravo 0, echo 1, foxtrot 2.
      const [delta, alpha, , bravo, , foxtrot] = await seed(api, [
        { url: 'https://sort.example/1', title: 'delta' },
        { url: 'https://sort.example/2', title: 'Alpha', isReadLater: true },
        { url: 'https://sort.example/3', title: 'charlie', isReadLater: true },
        { url: 'https://sort.example/4', title: 'Bravo' },
        { url: 'https://sort.example/5', title: 'echo' },
        { url: 'https://sort.example/6', title: 'foxtrot', isReadLater: true },
      ]);
      // Updates, one second apart, set updatedAt order: delta, foxtrot, Alpha, Bravo, then untouched.
      for (const [link, body] of [
        [bravo, { isRead: true }],
        [alpha, { isRead: true }],
        [foxtrot, { isRead: true }],
        [delta, { notes: 'touched' }],
      ] as const) {
        server.clock.advance(1000);
        await api.updateLink({ params: { id: link?.id ?? '' }, body });
      }
    });

    const cases: [string, string, string[]][] = [
      ['createdAt', 'desc', ['foxtrot', 'echo', 'Bravo', 'charlie', 'Alpha', 'delta']],
      ['createdAt', 'asc', ['delta', 'Alpha', 'charlie', 'Bravo', 'echo', 'foxtrot']],
      ['updatedAt', 'desc', ['delta', 'foxtrot', 'Alpha', 'Bravo', 'echo', 'charlie']],
      ['updatedAt', 'asc', ['charlie', 'echo', 'Bravo', 'Alpha', 'foxtrot', 'delta']],
      ['title', 'asc', ['Alpha', 'Bravo', 'charlie', 'delta', 'echo', 'foxtrot']],
      ['title', 'desc', ['foxtrot', 'echo', 'delta', 'charlie', 'Bravo', 'Alpha']],
      ['isRead', 'asc', ['echo', 'charlie', 'delta', 'foxtrot', 'Bravo', 'Alpha']],
      ['isRead', 'desc', ['foxtrot', 'Bravo', 'Alpha', 'echo', 'charlie', 'delta']],
      ['isReadLater', 'desc', ['foxtrot', 'charlie', 'Alpha', 'echo', 'Bravo', 'delta']],
      ['isReadLater', 'asc', ['echo', 'Bravo', 'delta', 'foxtrot', 'charlie', 'Alpha']],
      ['smart', 'desc', ['charlie', 'foxtrot', 'Alpha', 'echo', 'delta', 'Bravo']],
      ['smart', 'asc', ['Bravo', 'echo', 'delta', 'foxtrot', 'Alpha', 'charlie']],
    ];

    it.each(cases)('sorts by %s %s, ties by newest', async (sortBy, sortOrder, expected) => {
      expect(await titles(api, { sortBy, sortOrder })).toEqual(expected);
    });

    it('defaults sortOrder to desc', async () => {
      expect(await titles(api, { sortBy: 'title' })).toEqual(await titles(api, { sortBy: 'title', sortOrder: 'desc' }));
      expect(await titles(api, { sortBy: 'smart', sortOrder: 'sideways' })).toEqual([
        'charlie',
        'foxtrot',
        'Alpha',
        'echo',
        'delta',
        'Bravo',
      ]);
    });

    it('falls back to newest for no sort, an unknown sort, and relevance without a search', async () => {
      const newest = ['foxtrot', 'echo', 'Bravo', 'charlie', 'Alpha', 'delta'];
      expect(await titles(api)).toEqual(newest);
      for (const query of [
        { sortBy: 'bogus' },
        { sortBy: 'bogus', sortOrder: 'asc' },
        { sortBy: 'relevance' },
        { sortBy: 'relevance', sortOrder: 'asc' },
        { sortBy: 'CREATEDAT', sortOrder: 'asc' },
        { sortBy: '' },
      ]) {
        expect(await titles(api, query), JSON.stringify(query)).toEqual(newest);
      }
    });

    it('keeps the sort across pages', async () => {
      const pages = [];
      for (const page of [1, 2, 3]) {
        const list = await api.listLinks({ query: { sortBy: 'smart', limit: 2, page } });
        pages.push(...list.data.map((l) => l.title));
      }
      expect(pages).toEqual(['charlie', 'foxtrot', 'Alpha', 'echo', 'delta', 'Bravo']);
    });

    it('sorts filtered results too', async () => {
      expect(await titles(api, { isReadLater: 'true', sortBy: 'title', sortOrder: 'asc' })).toEqual([
        'Alpha',
        'charlie',
        'foxtrot',
      ]);
    });

    it('breaks every tie by newest, in both directions', async () => {
      const tied = (await server.signUp('ties')).api;
      const links = await seed(tied, [
        { url: 'https://tie.example/1', title: 'Same' },
        { url: 'https://tie.example/2', title: 'same' },
        { url: 'https://tie.example/3', title: 'SAME' },
      ]);
      // One update instant for all three: equal updatedAt too.
      server.clock.advance(1000);
      for (const link of links) await tied.updateLink({ params: { id: link.id }, body: { notes: 'same time' } });
      const newest = ['SAME', 'same', 'Same'];
      for (const sortBy of ['updatedAt', 'title', 'isRead', 'isReadLater', 'smart']) {
        for (const sortOrder of ['asc', 'desc']) {
          expect(await titles(tied, { sortBy, sortOrder }), `${sortBy} ${sortOrder}`).toEqual(newest);
        }
      }
    });
  });

  describe('pagination', () => {
    let api: ApiClient;
    let token: string;
    let all: Link[];

    beforeAll(async () => {
      ({ api, token } = await server.signUp('pages'));
      all = await seed(
        api,
        Array.from({ length: 30 }, (_, i) => ({ url: `https://page.example/${i}`, title: `Link ${i}` })),
      );
      all.reverse();
    });

    const ids = (links: Link[]) => links.map((l) => l.id);

    it('answers 24 per page by default, pages being 1-based', async () => {
      const first = await api.listLinks();
      expect([first.page, first.limit, first.total, first.actualTotal]).toEqual([1, 24, 30, 30]);
      expect(ids(first.data)).toEqual(ids(all.slice(0, 24)));
      const second = await api.listLinks({ query: { page: 2 } });
      expect([second.page, second.limit, second.total]).toEqual([2, 24, 30]);
      expect(ids(second.data)).toEqual(ids(all.slice(24)));
    });

    it('walks every page of a custom size without gaps or repeats', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const list = await api.listLinks({ query: { page, limit: 8 } });
        expect(list.total).toBe(30);
        seen.push(...ids(list.data));
      }
      expect(seen).toEqual(ids(all));
    });

    it('answers an empty page with the right total beyond the end', async () => {
      for (const query of [{ page: 4, limit: 10 }, { page: 3 }, { page: 1000 }]) {
        const list = await api.listLinks({ query });
        expect([list.data, list.total, list.actualTotal], JSON.stringify(query)).toEqual([[], 30, 30]);
      }
      const filtered = await api.listLinks({ query: { search: 'Link 1', page: 3, limit: 10 } });
      expect([filtered.data, filtered.total]).toEqual([[], 11]);
    });

    it('clamps limit into 1..100', async () => {
      for (const [limit, expected] of [
        [0, 1],
        [-5, 1],
        [1, 1],
        [100, 30],
        [1000, 30],
      ] as const) {
        const list = await api.listLinks({ query: { limit } });
        expect(list.data, `limit ${limit}`).toHaveLength(expected);
        expect(list.limit).toBe(Math.min(Math.max(limit, 1), 100));
      }
      // An empty `limit=` (a form with the field blank) means no limit was given.
      const blank = await raw(server, 'GET', '/api/links?limit=', { token });
      expect([blank.status, (blank.json() as { limit: number }).limit]).toEqual([200, 24]);
    });

    it('refuses a page that is not a positive whole number', async () => {
      for (const page of ['abc', '0', '-1', '1.5', '']) {
        const res = await raw(server, 'GET', `/api/links?page=${page}`, { token });
        expect(res.status, page).toBe(400);
        expect(res.json()).toEqual({
          error: 'page must be a positive whole number',
          code: 'VALIDATION_ERROR',
          details: { fields: { page: 'page must be a positive whole number' } },
        });
      }
      const e = await failure(api.listLinks({ query: { page: 0 } }));
      expect([e.status, e.code]).toEqual([400, 'VALIDATION_ERROR']);
      const limit = await raw(server, 'GET', '/api/links?limit=abc', { token });
      expect(limit.status).toBe(400);
      expect(limit.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: { limit: expect.any(String) as string } },
      });
    });
  });

  describe('subscription block', () => {
    it('reports the Free allowance for an empty account', async () => {
      const { api } = await server.signUp('emptylist');
      expect(await api.listLinks()).toEqual({
        data: [],
        total: 0,
        actualTotal: 0,
        page: 1,
        limit: 24,
        subscription: { canAddLinks: true, totalLinks: 0, linkLimit: 30, remainingLinks: 30 },
      });
    });

    it('counts every owned link, whatever the filter', async () => {
      const { api } = await server.signUp('block');
      await seed(api, [
        { url: 'https://block.example/1', category: 'A' },
        { url: 'https://block.example/2' },
        { url: 'https://block.example/3' },
      ]);
      const expected = { canAddLinks: true, totalLinks: 3, linkLimit: 30, remainingLinks: 27 };
      expect((await api.listLinks()).subscription).toEqual(expected);
      expect((await api.listLinks({ query: { category: 'A' } })).subscription).toEqual(expected);
      expect((await api.listLinks({ query: { page: 9 } })).subscription).toEqual(expected);
      expect(await api.subscriptionUsage()).toEqual({
        totalLinks: 3,
        linkLimit: 30,
        hasUnlimitedLinks: false,
        canAddLinks: true,
      });
    });
  });

  describe('with 120 links', () => {
    let api: ApiClient;
    let roomy: TestServer;

    beforeAll(async () => {
      // A Free limit above 120, so the list takes the ordinary (not downgraded) path.
      roomy = await startServer(engine, { FREE_LINK_LIMIT: '500' });
      ({ api } = await roomy.signUp('many'));
      await setUpVault(api);
      await seed(
        api,
        Array.from({ length: 120 }, (_, i) => ({
          url: `https://many.example/${i}`,
          title: `Many ${i}`,
          category: `Category ${i % 7}`,
          tags: i % 2 === 0 ? [`tag${i % 5}`, 'shared'] : [],
          credentials: i % 3 === 0 ? [credential(`m${i}`)] : [],
          isReadLater: i % 4 === 0,
        })),
        roomy,
      );
    }, 120_000);
    afterAll(() => roomy.close());

    it('never answers more than 100 links in one page', async () => {
      const list = await api.listLinks({ query: { limit: 1000 } });
      expect([list.data.length, list.limit, list.total, list.actualTotal]).toEqual([100, 100, 120, 120]);
      const rest = await api.listLinks({ query: { limit: 100, page: 2 } });
      expect(rest.data.map((l) => l.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Many ${19 - i}`));
    });

    it('runs as many statements for 100 links as for 5 (no N+1)', async () => {
      const count = async (query: LinkListQueryInput) => {
        const before = roomy.queries();
        const list = await api.listLinks({ query });
        return { statements: roomy.queries() - before, list };
      };
      // Warm up: the first request after a clock move refreshes the token's last use.
      await count({ limit: 1 });
      const small = await count({ limit: 5 });
      const large = await count({ limit: 100 });
      expect(small.list.data).toHaveLength(5);
      expect(large.list.data).toHaveLength(100);
      // Both pages hold links with tags and with credentials, so every hydration query runs.
      for (const { list } of [small, large]) {
        expect(list.data.some((l) => l.tags.length > 0)).toBe(true);
        expect(list.data.some((l) => l.credentials.length > 0)).toBe(true);
      }
      expect(small.statements).toBeGreaterThan(0);
      expect(large.statements).toBe(small.statements);

      // The same holds with filters and a search.
      const filteredSmall = await count({ limit: 5, search: 'many', isReadLater: 'true' });
      const filteredLarge = await count({ limit: 100, search: 'many', isReadLater: 'true' });
      expect(filteredLarge.list.data.length).toBeGreaterThan(filteredSmall.list.data.length);
      expect(filteredLarge.statements).toBe(filteredSmall.statements);
    });

    it('hydrates tags and credentials onto the right links', async () => {
      const list = await api.listLinks({ query: { limit: 100, sortBy: 'createdAt', sortOrder: 'asc' } });
      for (const link of list.data) {
        const i = Number(link.title.replace('Many ', ''));
        expect(link.tags).toEqual(i % 2 === 0 ? [`tag${i % 5}`, 'shared'] : []);
        expect(link.credentials).toEqual(i % 3 === 0 ? [credential(`m${i}`)] : []);
      }
    });
  });

  it('answers with the spec wording when the token is missing', async () => {
    const res = await raw(server, 'GET', '/api/links');
    expect([res.status, res.json()]).toEqual([
      401,
      { error: Messages.authenticationRequired, code: 'UNAUTHENTICATED' },
    ]);
  });
});
