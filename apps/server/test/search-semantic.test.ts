import type { ApiClient, Link, SearchQueryInput } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerEmbedder } from '../src/modules/ml/embedder.js';
import { vectorBytes } from '../src/modules/embeddings/vector-bytes.js';
import { engines, seed, startServer, upgrade, type TestServer } from './harness.js';

const DAY_MS = 86_400_000;

/** Links on distinct topics; the queries below share no word with the link they should find. */
const LINKS = [
  { url: 'https://food.example/pasta', title: 'Fresh pasta by hand', description: 'Flour, eggs and a rolling pin' },
  { url: 'https://space.example/mars', title: 'Rover lands on Mars', description: 'NASA probe touches down safely' },
  { url: 'https://money.example/stocks', title: 'Index funds explained', description: 'Why passive investing wins' },
  { url: 'https://pets.example/dogs', title: 'Training your puppy', description: 'Teach a young dog to sit and stay' },
  {
    url: 'https://code.example/react',
    title: 'React hooks guide',
    description: 'useState and useEffect',
    tags: ['frontend'],
  },
];

describe.each(engines())('semantic search on %s (offline model)', (engine) => {
  let server: TestServer;
  const model = new WorkerEmbedder();

  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  /** What the analysis job stores for a link: the vector of its title and description. */
  async function embed(links: Link[], modelId = model.modelId): Promise<void> {
    const vectors = await model.embed(links.map((l) => `${l.title}. ${l.description}`));
    for (const [i, link] of links.entries()) {
      await server.database.db
        .insertInto('embeddings')
        .values({
          link_id: link.id,
          model: modelId,
          dims: model.dimensions,
          vector: vectorBytes(vectors[i] ?? new Float32Array(model.dimensions)),
          created_at: 1,
        })
        .onConflict((oc) =>
          oc.column('link_id').doUpdateSet({ model: modelId, vector: vectorBytes(vectors[i] ?? new Float32Array(1)) }),
        )
        .execute();
    }
  }

  const search = async (api: ApiClient, query: SearchQueryInput) => (await api.search({ query })).data;

  describe('Pro (hybrid)', () => {
    let api: ApiClient;
    let links: Link[];

    beforeAll(async () => {
      ({ api } = await server.signUp('pro'));
      await upgrade(server, api);
      links = await seed(server, api, LINKS);
      await embed(links);
    }, 60_000);

    it('finds links by meaning when no word matches', async () => {
      const cases: [string, string][] = [
        ['italian noodles recipe', 'Fresh pasta by hand'],
        ['spacecraft exploring the red planet', 'Rover lands on Mars'],
        ['obedience lessons for canines', 'Training your puppy'],
        ['cheap diversified portfolio for retirement', 'Index funds explained'],
      ];
      for (const [query, title] of cases) {
        const [first] = await search(api, { query });
        expect(first?.title, query).toBe(title);
        expect(first?.match_type, query).toBe('semantic');
        expect(first?.similarity).toBeGreaterThan(0);
        expect(first?.similarity).toBeLessThanOrEqual(1);
      }
    });

    it('finds nothing for random letters: the model reads them as nonsense, not as its nearest links', async () => {
      for (const query of ['xyzzyqwerty', 'asdfghjkl', 'qwpoeiruty zxmcnvb', 'grzmblfx vvtrq'])
        expect(await search(api, { query }), query).toEqual([]);
      // Words the model builds from pieces of its vocabulary still mean something to it.
      const [first] = await search(api, { query: 'cooking with flour' });
      expect(first?.title).toBe('Fresh pasta by hand');
    });

    it('keeps exact words first: a title query ranks its link first as a text match', async () => {
      for (const link of links) {
        const [first] = await search(api, { query: link.title });
        expect([first?.title, first?.match_type]).toEqual([link.title, 'text']);
        expect(first?.similarity).toBe(1);
      }
    });

    it('an exact title still wins when its link has no vector yet and a newer link is nearest in meaning', async () => {
      // The titled link is saved first and not embedded yet (analysis pending); a newer link on the
      // same topic is the vectors' first answer. Both then have the same fused score.
      const [pending, neighbour] = await seed(server, api, [
        { url: 'https://bake.example/starter', title: 'Sourdough starter troubleshooting' },
        { url: 'https://bake.example/rise', title: 'Why my sourdough loaf will not rise' },
      ]);
      await embed(neighbour ? [neighbour] : []);
      const result = await search(api, { query: 'Sourdough starter troubleshooting' });
      expect(result.map((l) => [l.id, l.match_type]).slice(0, 2)).toEqual([
        [pending?.id, 'text'],
        [neighbour?.id, 'semantic'],
      ]);
    });

    it('#tag stays an exact tag search', async () => {
      const result = await search(api, { query: '#frontend' });
      expect(result.map((l) => [l.title, l.match_type])).toEqual([['React hooks guide', 'tag']]);
    });

    it('drops a deleted link at once, even while its vector is cached', async () => {
      const [extra] = await seed(server, api, [{ url: 'https://x.example/cats', title: 'Kitten care basics' }]);
      await embed(extra ? [extra] : []);
      expect((await search(api, { query: 'looking after a young feline' }))[0]?.title).toBe('Kitten care basics');
      await api.deleteLink({ params: { id: extra?.id ?? '' } });
      const after = await search(api, { query: 'looking after a young feline' });
      expect(after.map((l) => l.title)).not.toContain('Kitten care basics');
    });

    it('after one more link is analysed, the next search reads only that link’s vector', async () => {
      await search(api, { query: 'italian noodles recipe' });
      const [extra] = await seed(server, api, [{ url: 'https://x.example/tea', title: 'Brewing green tea' }]);
      await embed(extra ? [extra] : []);
      const from = server.queries();
      const [first] = await search(api, { query: 'steeping japanese leaves in hot water' });
      expect([first?.title, first?.match_type]).toEqual(['Brewing green tea', 'semantic']);
      const ran = server.statements(from);
      expect(ran.filter((q) => /from "embeddings"/.test(q))).toEqual([]);
      expect(ran.filter((q) => /from "search_vector_log"/.test(q))).toHaveLength(1);
      await api.deleteLink({ params: { id: extra?.id ?? '' } });
      const after = await search(api, { query: 'steeping japanese leaves in hot water' });
      expect(after.map((l) => l.title)).not.toContain('Brewing green tea');
    });

    it('runs as many statements for a large answer as for a small one', async () => {
      await search(api, { query: 'something to read', limit: 1 });
      const count = async (limit: number) => {
        const before = server.queries();
        const data = await search(api, { query: 'something to read', limit });
        return { statements: server.queries() - before, n: data.length };
      };
      const small = await count(1);
      const large = await count(5);
      expect(small.n).toBe(1);
      expect(large.n).toBeGreaterThanOrEqual(3);
      expect(large.statements).toBe(small.statements);
    });
  });

  it('Free searches text only: no semantic matches', async () => {
    const { api } = await server.signUp('free');
    await embed(await seed(server, api, LINKS));
    expect(await search(api, { query: 'italian noodles recipe' })).toEqual([]);
    const [hit] = await search(api, { query: 'pasta' });
    expect([hit?.title, hit?.match_type]).toEqual(['Fresh pasta by hand', 'text']);
  });

  it('falls back to text when vectors are missing or from another model, and uses them once re-embedded', async () => {
    const { api } = await server.signUp('fallback');
    await upgrade(server, api);
    const links = await seed(server, api, LINKS);
    // No vectors yet (analysis pending): text search answers.
    expect(await search(api, { query: 'italian noodles recipe' })).toEqual([]);
    expect((await search(api, { query: 'pasta' })).map((l) => l.match_type)).toEqual(['text']);
    // Vectors of a previous provider are not comparable with this model's queries.
    await embed(links, 'another-provider-768');
    expect(await search(api, { query: 'italian noodles recipe' })).toEqual([]);
    // Re-embedded in the background with the current model: meaning search works again.
    await embed(links);
    expect((await search(api, { query: 'italian noodles recipe' }))[0]?.title).toBe('Fresh pasta by hand');
  });

  it('does not find links hidden by a downgrade by meaning either', async () => {
    const limited = await startServer(engine, { FREE_LINK_LIMIT: '2' });
    try {
      const { api } = await limited.signUp('hidden');
      await upgrade(limited, api);
      const links = await seed(limited, api, LINKS.slice(0, 3));
      const vectors = await model.embed(links.map((l) => `${l.title}. ${l.description}`));
      for (const [i, link] of links.entries()) {
        await limited.database.db
          .insertInto('embeddings')
          .values({
            link_id: link.id,
            model: model.modelId,
            dims: model.dimensions,
            vector: vectorBytes(vectors[i] ?? new Float32Array(1)),
            created_at: 1,
          })
          .execute();
      }
      const query = 'cheap diversified portfolio for retirement';
      expect((await search(api, { query }))[0]?.title).toBe('Index funds explained');
      await api.cancelSubscription();
      limited.clock.advance(40 * DAY_MS);
      // Free now (text search): the third link is beyond the limit and no word matches anyway...
      expect(await search(api, { query })).toEqual([]);
      // ...and its words no longer find it either.
      expect(await search(api, { query: 'index funds' })).toEqual([]);
      expect((await search(api, { query: 'pasta' })).map((l) => l.title)).toEqual(['Fresh pasta by hand']);
    } finally {
      await limited.close();
    }
  });
});
