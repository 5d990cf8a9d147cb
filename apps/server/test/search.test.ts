import { Messages, type ApiClient, type Link, type SearchQueryInput } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, raw, seed, startServer, upgrade, type TestServer } from './harness.js';

const DAY_MS = 86_400_000;

describe.each(engines())('GET /api/search on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  const titles = async (api: ApiClient, query: SearchQueryInput) =>
    (await api.search({ query })).data.map((l) => l.title);

  describe('full text', () => {
    let api: ApiClient;
    let links: Link[];

    beforeAll(async () => {
      ({ api } = await server.signUp('fulltext'));
      links = await seed(server, api, [
        {
          url: 'https://k8s.example/net',
          title: 'Kubernetes networking explained',
          tags: ['devops', 'Machine Learning'],
        },
        { url: 'https://run.example/plan', title: 'Running your first marathon', description: 'A training plan' },
        { url: 'https://food.example/pasta', title: 'Fresh pasta', tags: ['recipes'], notes: 'grandma says semolina' },
        { url: 'https://docs.example/pg', title: 'Connection pooling in PostgreSQL', category: 'Development' },
        { url: 'https://machine.example/x', title: 'Machine shop tools', tags: ['machine'] },
      ]);
    });

    it('answers links with similarity in [0, 1] and match_type text, best first', async () => {
      const result = await api.search({ query: { query: 'kubernetes' } });
      expect(result.total).toBe(1);
      expect(result.data).toHaveLength(1);
      const [hit] = result.data;
      expect(hit).toMatchObject({
        id: links[0]?.id,
        url: 'https://k8s.example/net',
        title: 'Kubernetes networking explained',
        tags: ['devops', 'Machine Learning'],
        match_type: 'text',
        // The first text hit: every word matched (fusion.ts's text confidence at rank 1).
        similarity: 0.9,
        isRead: false,
        credentials: [],
      });
      // Exactly the link fields plus the two search fields.
      expect(Object.keys(hit ?? {}).sort()).toEqual(
        [...Object.keys(links[0] ?? {}), 'similarity', 'match_type'].sort(),
      );
    });

    it('stems words: marathons finds marathon, runs finds running', async () => {
      expect(await titles(api, { query: 'marathons' })).toEqual(['Running your first marathon']);
      expect(await titles(api, { query: 'runs' })).toEqual(['Running your first marathon']);
      expect(await titles(api, { query: 'pooled connections' })).toEqual(['Connection pooling in PostgreSQL']);
    });

    it('matches the last word as a prefix while typing', async () => {
      expect(await titles(api, { query: 'kub' })).toEqual(['Kubernetes networking explained']);
      expect(await titles(api, { query: 'fresh pa' })).toEqual(['Fresh pasta']);
      expect(await titles(api, { query: 'postgr' })).toEqual(['Connection pooling in PostgreSQL']);
    });

    it('finds a half-typed word whose stem differs from its prefix without the typo path', async () => {
      const { api: typist } = await server.signUp('typist');
      await seed(server, typist, [{ url: 'https://ops.example/zd', title: 'Zero-downtime deployments' }]);
      const statements = async (query: string) => {
        const before = server.queries();
        const found = await titles(typist, { query });
        return { found, statements: server.queries() - before };
      };
      const whole = await statements('deployments');
      const typing = await statements('deploym');
      expect(typing.found).toEqual(['Zero-downtime deployments']);
      expect(typing.statements).toBe(whole.statements);
    });

    it('tolerates small typos', async () => {
      expect(await titles(api, { query: 'kubernets' })).toEqual(['Kubernetes networking explained']);
      expect(await titles(api, { query: 'recipies' })).toEqual(['Fresh pasta']);
      expect(await titles(api, { query: 'maraton' })).toEqual(['Running your first marathon']);
      // Short words are not corrected (too many near neighbours) and nonsense finds nothing.
      expect(await titles(api, { query: 'zqxwv' })).toEqual([]);
    });

    it('corrects only words the library does not hold as they are', async () => {
      const { api: reader } = await server.signUp('reader');
      await seed(server, reader, [
        { url: 'https://music.example/dylan', title: 'Folk singer biography' },
        { url: 'https://awards.example/list', title: 'Nobel prize winners' },
        { url: 'https://code.example/six', title: 'Fork six node pro tips' },
      ]);
      // No link has all four words; each is spelled right, so none is "corrected" into the third link.
      expect(await titles(reader, { query: 'folk singer nobel prize' })).toEqual([]);
      // A misspelt word is still corrected beside one spelled right.
      expect(await titles(reader, { query: 'nobel prizee' })).toEqual(['Nobel prize winners']);
    });

    it('searches tags, notes, description, category and the URL', async () => {
      expect(await titles(api, { query: 'devops' })).toEqual(['Kubernetes networking explained']);
      expect(await titles(api, { query: 'semolina' })).toEqual(['Fresh pasta']);
      expect(await titles(api, { query: 'training' })).toEqual(['Running your first marathon']);
      expect(await titles(api, { query: 'development' })).toEqual(['Connection pooling in PostgreSQL']);
      expect(await titles(api, { query: 'food.example' })).toEqual(['Fresh pasta']);
    });

    it('ranks title matches above body matches', async () => {
      await seed(server, api, [{ url: 'https://rank.example/1', title: 'Notes', notes: 'about pasta shapes' }]);
      expect(await titles(api, { query: 'pasta' })).toEqual(['Fresh pasta', 'Notes']);
      // A tag match ranks above the older body match too, and below the title match, which is its
      // own tier (both engines: title, title or tags, the rest).
      const [shapes] = await seed(server, api, [{ url: 'https://rank.example/2', title: 'Shapes', tags: ['pasta'] }]);
      expect(await titles(api, { query: 'pasta' })).toEqual(['Fresh pasta', 'Shapes', 'Notes']);
      await api.deleteLink({ params: { id: shapes!.id } });
    });

    it('#tag searches that tag exactly and case-insensitively, multi-word tags included', async () => {
      const tagged = await api.search({ query: { query: '#Machine Learning' } });
      expect(tagged.data.map((l) => [l.title, l.match_type, l.similarity])).toEqual([
        ['Kubernetes networking explained', 'tag', 1],
      ]);
      expect(await titles(api, { query: '#machine   learning' })).toEqual(['Kubernetes networking explained']);
      expect(await titles(api, { query: '#MACHINE' })).toEqual(['Machine shop tools']);
      // Not a word search: 'Kubernetes' is a title word, not a tag.
      expect(await titles(api, { query: '#kubernetes' })).toEqual([]);
      expect(await titles(api, { query: '#mach' })).toEqual([]);
    });

    it('#tag finds emoji tags built with joiners, and tags saved with stray invisible characters', async () => {
      const { api: emoji } = await server.signUp('emoji');
      await seed(server, emoji, [
        { url: 'https://emoji.example/dev', title: 'Remote work setup', tags: ['👩‍💻', '🏳️‍🌈 pride'] },
        { url: 'https://emoji.example/zw', title: 'Zero width', tags: ['data\u200bviz', '\u200b'] },
      ]);
      expect((await emoji.listLinks()).data.map((l) => [l.title, l.tags])).toEqual([
        ['Zero width', ['dataviz']],
        ['Remote work setup', ['👩‍💻', '🏳️‍🌈 pride']],
      ]);
      expect(await titles(emoji, { query: '#👩‍💻' })).toEqual(['Remote work setup']);
      expect(await titles(emoji, { query: '#🏳️‍🌈 PRIDE' })).toEqual(['Remote work setup']);
      // The woman alone (no joiner, no laptop) is another emoji and another tag.
      expect(await titles(emoji, { query: '#👩' })).toEqual([]);
      expect(await titles(emoji, { query: '#data\u200bviz' })).toEqual(['Zero width']);
      expect(await titles(emoji, { query: '#dataviz' })).toEqual(['Zero width']);
      const listed = await emoji.listLinks({ query: { search: '#\ufeff👩‍💻' } });
      expect(listed.data.map((l) => l.title)).toEqual(['Remote work setup']);
    });

    it('returns a full page of up to 200 text matches when asked for one', async () => {
      const { api: collector } = await server.signUp('collector');
      await upgrade(server, collector);
      const many = Array.from({ length: 130 }, (_, i) => ({ url: `https://many.example/${i}`, title: `Widget ${i}` }));
      await seed(server, collector, many);
      const all = await collector.search({ query: { query: 'widget', limit: 200 } });
      expect([all.data.length, all.total]).toEqual([130, 130]);
      const page = await collector.search({ query: { query: 'widget' } });
      expect(page.data).toHaveLength(50);
    });

    it('refuses queries under 2 characters after trimming, with the spec wording', async () => {
      // Invisible characters are not text: zero-width spaces, a joiner around one letter, a BOM.
      for (const query of ['a', '  b  ', '', '\u200b\u200b\u200b', '\u200da\u200d', '\ufeff\ufeff']) {
        const error = await failure(api.search({ query: { query } }));
        expect([error.status, error.code, error.details?.fields]).toEqual([
          400,
          'VALIDATION_ERROR',
          { query: Messages.searchTooShort },
        ]);
      }
      expect(await titles(api, { query: '  kubernetes  ' })).toEqual(['Kubernetes networking explained']);
    });

    it('never lets the query reach the SQL', async () => {
      for (const query of ["' or zz=zz --", '"; drop table links; --', 'owner:x OR *', 'NEAR(a b)', '%%', "'\\"]) {
        expect(await titles(api, { query }), query).toEqual([]);
      }
      expect((await api.listLinks()).total).toBe(6);
    });

    it('requires a signed-in user', async () => {
      const res = await raw(server, 'GET', '/api/search?query=pasta');
      expect(res.status).toBe(401);
    });
  });

  describe('sorting and limit', () => {
    let api: ApiClient;

    beforeAll(async () => {
      ({ api } = await server.signUp('sorting'));
      const [, alpha, charlie] = await seed(server, api, [
        { url: 'https://s.example/1', title: 'Delta garden notes', isReadLater: true },
        { url: 'https://s.example/2', title: 'alpha garden' },
        { url: 'https://s.example/3', title: 'Charlie garden', notes: 'garden garden' },
        { url: 'https://s.example/4', title: 'Bravo', description: 'a garden at last' },
      ]);
      await api.updateLink({ params: { id: alpha?.id ?? '' }, body: { isRead: true } });
      server.clock.advance(1000);
      await api.updateLink({ params: { id: charlie?.id ?? '' }, body: { isRead: true } });
    });

    it('orders by relevance by default, similarity descending', async () => {
      const result = await api.search({ query: { query: 'garden' } });
      const sims = result.data.map((l) => l.similarity);
      expect(sims).toEqual([...sims].sort((a, b) => b - a));
      expect(result.data).toHaveLength(4);
      // A body-only match ranks last.
      expect(result.data.at(-1)?.title).toBe('Bravo');
      expect((await api.search({ query: { query: 'garden', sortBy: 'nonsense' } })).data).toEqual(result.data);
      expect((await api.search({ query: { query: 'garden', sortBy: 'smart' } })).data).toEqual(result.data);
    });

    it('sorts the matches by every other field, ties newest first', async () => {
      const by = (sortBy: string, sortOrder?: string) => titles(api, { query: 'garden', sortBy, sortOrder });
      expect(await by('createdAt')).toEqual(['Bravo', 'Charlie garden', 'alpha garden', 'Delta garden notes']);
      expect(await by('createdAt', 'asc')).toEqual(['Delta garden notes', 'alpha garden', 'Charlie garden', 'Bravo']);
      expect(await by('title', 'asc')).toEqual(['alpha garden', 'Bravo', 'Charlie garden', 'Delta garden notes']);
      expect(await by('title', 'desc')).toEqual(['Delta garden notes', 'Charlie garden', 'Bravo', 'alpha garden']);
      expect(await by('updatedAt')).toEqual(['Charlie garden', 'Bravo', 'alpha garden', 'Delta garden notes']);
      expect(await by('isRead', 'asc')).toEqual(['Bravo', 'Delta garden notes', 'Charlie garden', 'alpha garden']);
      expect(await by('isReadLater')).toEqual(['Delta garden notes', 'Bravo', 'Charlie garden', 'alpha garden']);
    });

    it('answers at most `limit` results', async () => {
      const result = await api.search({ query: { query: 'garden', limit: 2 } });
      expect([result.data.length, result.total]).toEqual([2, 2]);
      expect((await api.search({ query: { query: 'garden', limit: 0 } })).data).toHaveLength(1);
    });
  });

  describe('changes and visibility', () => {
    it('reflects edits and deletions at once', async () => {
      const { api } = await server.signUp('edits');
      const [link] = await seed(server, api, [{ url: 'https://e.example/1', title: 'Sourdough starter' }]);
      const id = link?.id ?? '';
      expect(await titles(api, { query: 'sourdough' })).toEqual(['Sourdough starter']);
      await api.updateLink({ params: { id }, body: { title: 'Rye bread', tags: ['baking'], notes: 'levain' } });
      expect(await titles(api, { query: 'sourdough' })).toEqual([]);
      expect(await titles(api, { query: 'rye' })).toEqual(['Rye bread']);
      expect(await titles(api, { query: 'baking' })).toEqual(['Rye bread']);
      expect(await titles(api, { query: '#baking' })).toEqual(['Rye bread']);
      expect(await titles(api, { query: 'levain' })).toEqual(['Rye bread']);
      await api.updateLink({ params: { id }, body: { tags: [] } });
      expect(await titles(api, { query: 'baking' })).toEqual([]);
      await api.deleteLink({ params: { id } });
      expect(await titles(api, { query: 'rye' })).toEqual([]);
      expect(await titles(api, { query: 'levain' })).toEqual([]);
    });

    it('indexes page text saved by the analysis', async () => {
      const { api } = await server.signUp('pages');
      const [link] = await seed(server, api, [{ url: 'https://p.example/1', title: 'An article' }]);
      const id = link?.id ?? '';
      const { db } = server.database;
      await db
        .insertInto('page_contents')
        .values({
          link_id: id,
          text: 'Photosynthesis converts light',
          language: 'en',
          content_hash: null,
          fetched_at: 1,
        })
        .execute();
      expect(await titles(api, { query: 'photosynthesis' })).toEqual(['An article']);
      await db.updateTable('page_contents').set({ text: 'Chlorophyll' }).where('link_id', '=', id).execute();
      expect(await titles(api, { query: 'photosynthesis' })).toEqual([]);
      expect(await titles(api, { query: 'chlorophyll' })).toEqual(['An article']);
      await db.updateTable('links').set({ ai_description: 'About plant biology' }).where('id', '=', id).execute();
      expect(await titles(api, { query: 'biology' })).toEqual(['An article']);
    });

    it("never finds another user's links", async () => {
      const alice = await server.signUp('alice');
      const bob = await server.signUp('bob');
      await seed(server, alice.api, [{ url: 'https://a.example/1', title: 'Quantum entanglement', tags: ['physics'] }]);
      await seed(server, bob.api, [{ url: 'https://b.example/1', title: 'Quantum computing', tags: ['physics'] }]);
      expect(await titles(alice.api, { query: 'quantum' })).toEqual(['Quantum entanglement']);
      expect(await titles(bob.api, { query: 'quantum' })).toEqual(['Quantum computing']);
      expect(await titles(bob.api, { query: '#physics' })).toEqual(['Quantum computing']);
      expect(await titles(bob.api, { query: 'entanglement' })).toEqual([]);
      expect(await titles(bob.api, { query: 'entanglment' })).toEqual([]);
      // The owner token is not a searchable word.
      expect(await titles(bob.api, { query: `u${alice.userId.replace(/-/g, '')}` })).toEqual([]);
    });

    it('does not find links hidden by a downgrade', async () => {
      const limited = await startServer(engine, { FREE_LINK_LIMIT: '2' });
      try {
        const { api } = await limited.signUp('downgrade');
        await upgrade(limited, api);
        await seed(limited, api, [
          { url: 'https://d.example/1', title: 'Visible tulips', tags: ['flowers'] },
          { url: 'https://d.example/2', title: 'Visible roses', tags: ['flowers'] },
          { url: 'https://d.example/3', title: 'Hidden tulips', tags: ['flowers'] },
        ]);
        expect(await titles(api, { query: 'tulips', sortBy: 'createdAt' })).toEqual([
          'Hidden tulips',
          'Visible tulips',
        ]);
        await api.cancelSubscription();
        limited.clock.advance(40 * DAY_MS);
        expect(await titles(api, { query: 'tulips' })).toEqual(['Visible tulips']);
        expect(await titles(api, { query: 'hidden' })).toEqual([]);
        expect(await titles(api, { query: 'hiden tulips' })).toEqual([]);
        expect(await titles(api, { query: '#flowers', sortBy: 'createdAt' })).toEqual([
          'Visible roses',
          'Visible tulips',
        ]);
        expect((await api.listLinks({ query: { search: 'tulips' } })).data.map((l) => l.title)).toEqual([
          'Visible tulips',
        ]);
      } finally {
        await limited.close();
      }
    });
  });

  it('limits searches per account, not per server (each embeds its query on the shared model thread)', async () => {
    const limited = await startServer(engine, { RATE_LIMIT_SEARCH_PER_MINUTE: '3' });
    try {
      const alice = await limited.signUp('searcher');
      const bob = await limited.signUp('neighbour');
      const search = (token: string) => raw(limited, 'GET', '/api/search?query=tulips', { token });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await search(alice.token)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await search(alice.token)).json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect((await search(bob.token)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('the links list search uses the same engine (stemming, prefix)', async () => {
    const { api } = await server.signUp('list');
    await seed(server, api, [
      { url: 'https://l.example/1', title: 'Running shoes' },
      { url: 'https://l.example/2', title: 'Swimming goggles' },
    ]);
    const list = async (search: string) => (await api.listLinks({ query: { search } })).data.map((l) => l.title);
    expect(await list('runs')).toEqual(['Running shoes']);
    expect(await list('swim')).toEqual(['Swimming goggles']);
    expect(await list('goggle')).toEqual(['Swimming goggles']);
  });

  it('runs as many statements for 50 results as for 2 (no N+1)', async () => {
    const { api } = await server.signUp('count');
    await upgrade(server, api);
    await seed(
      server,
      api,
      Array.from({ length: 50 }, (_, i) => ({
        url: `https://c.example/${i}`,
        title: `Lighthouse ${i}`,
        tags: ['coast', `t${i}`],
      })),
    );
    const count = async (query: SearchQueryInput) => {
      const before = server.queries();
      const result = await api.search({ query });
      return { statements: server.queries() - before, n: result.data.length };
    };
    await count({ query: 'lighthouse', limit: 1 });
    const small = await count({ query: 'lighthouse', limit: 2 });
    const large = await count({ query: 'lighthouse', limit: 50 });
    expect([small.n, large.n]).toEqual([2, 50]);
    expect(small.statements).toBeGreaterThan(0);
    expect(large.statements).toBe(small.statements);
    const tagSmall = await count({ query: '#coast', limit: 2 });
    const tagLarge = await count({ query: '#coast', limit: 50 });
    expect([tagSmall.n, tagLarge.n]).toEqual([2, 50]);
    expect(tagLarge.statements).toBe(tagSmall.statements);
  });
});
