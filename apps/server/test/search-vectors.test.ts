import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchRepository } from '../src/modules/search/search.repository.js';
import { loadUserVectors, patchLimit } from '../src/modules/search/search.service.js';
import { vectorBytes } from '../src/modules/embeddings/vector-bytes.js';
import { buildVectors, topK, VectorCache } from '../src/modules/search/vector-index.js';
import { engines, seed, startServer, type TestServer } from './harness.js';

describe.each(engines())('stored link vectors on %s', (engine) => {
  let server: TestServer;
  let repo: SearchRepository;

  beforeAll(async () => {
    server = await startServer(engine);
    repo = new SearchRepository(server.database.db, engine);
  });
  afterAll(() => server.close());

  const store = (linkId: string, vector: number[], model = 'm1') =>
    server.database.db
      .insertInto('embeddings')
      .values({
        link_id: linkId,
        model,
        dims: vector.length,
        vector: vectorBytes(Float32Array.from(vector)),
        created_at: 1,
      })
      .execute();

  it('loads only the user’s vectors of one model, and the version moves on every vector change', async () => {
    const alice = await server.signUp('alice');
    const bob = await server.signUp('bob');
    const [a1, a2, a3] = await seed(server, alice.api, [
      { url: 'https://v.example/1', title: 'one' },
      { url: 'https://v.example/2', title: 'two' },
      { url: 'https://v.example/3', title: 'three' },
    ]);
    const [b1] = await seed(server, bob.api, [{ url: 'https://v.example/b', title: 'bob' }]);
    const id = (l: { id: string } | undefined) => l?.id ?? '';

    const v0 = await repo.version(alice.userId);
    await store(id(a1), [1, 0, 0]);
    const v1 = await repo.version(alice.userId);
    expect(v1).toBeGreaterThan(v0);
    await store(id(a2), [0, 1, 0]);
    await store(id(a3), [0, 0, 1], 'm2');
    await store(id(b1), [1, 0, 0]);

    const rows = await repo.vectors(alice.userId, 'm1');
    expect(rows.map((r) => r.linkId).sort()).toEqual([id(a1), id(a2)].sort());
    const vectors = buildVectors(v1, 'm1', 3, rows);
    const best = topK(vectors, Float32Array.from([0.9, 0.1, 0]), 2, 0);
    expect(best.map((h) => vectors.ids[h.index])).toEqual([id(a1), id(a2)]);

    // Flag toggles and title edits do not move it (the vectors did not change)...
    const before = await repo.version(alice.userId);
    await alice.api.updateLink({ params: { id: id(a1) }, body: { isRead: true, title: 'uno' } });
    expect(await repo.version(alice.userId)).toBe(before);
    // ...a re-embedding, a removed vector and a deleted link do.
    await server.database.db
      .updateTable('embeddings')
      .set({ vector: vectorBytes(Float32Array.from([0, 1, 1])) })
      .where('link_id', '=', id(a1))
      .execute();
    const afterUpdate = await repo.version(alice.userId);
    expect(afterUpdate).toBeGreaterThan(before);
    await server.database.db.deleteFrom('embeddings').where('link_id', '=', id(a2)).execute();
    const afterDelete = await repo.version(alice.userId);
    expect(afterDelete).toBeGreaterThan(afterUpdate);
    await alice.api.deleteLink({ params: { id: id(a3) } });
    expect(await repo.version(alice.userId)).toBeGreaterThan(afterDelete);
    expect((await repo.vectors(alice.userId, 'm2')).length).toBe(0);
    // Bob's version is his own.
    expect(await repo.version(bob.userId)).toBe(1);
  });

  it('serves the cache until the version moves, then reloads from the table', async () => {
    const { api, userId } = await server.signUp('cache');
    const [l1, l2] = await seed(server, api, [
      { url: 'https://c.example/1', title: 'one' },
      { url: 'https://c.example/2', title: 'two' },
    ]);
    await store(l1?.id ?? '', [1, 0]);
    const cache = new VectorCache(1_000_000);
    const get = async () => {
      const version = await repo.version(userId);
      return cache.get(userId, version, 'm1', async () =>
        buildVectors(version, 'm1', 2, await repo.vectors(userId, 'm1')),
      );
    };
    const first = await get();
    expect(first.ids).toEqual([l1?.id]);
    expect(await get()).toBe(first);
    await store(l2?.id ?? '', [0, 1]);
    const second = await get();
    expect(second.ids.sort()).toEqual([l1?.id, l2?.id].sort());
    await api.deleteLink({ params: { id: l1?.id ?? '' } });
    expect((await get()).ids).toEqual([l2?.id]);
  });

  describe('incremental refresh', () => {
    const DIMS = 4;
    /** The search service's loader over a cache, and which of its statements ran. */
    const cached = (userId: string) => {
      const cache = new VectorCache(10_000_000);
      return async (model = 'm1') => {
        const from = server.queries();
        const version = await repo.version(userId);
        const vectors = await cache.get(userId, version, model, (stale) =>
          loadUserVectors(repo, userId, model, DIMS, version, stale),
        );
        const ran = server.statements(from);
        return {
          vectors,
          fullLoads: ran.filter((q) => /from "embeddings"/.test(q)).length,
          patches: ran.filter((q) => /from "search_vector_log"/.test(q)).length,
        };
      };
    };
    const links = async (api: Parameters<typeof seed>[1], n: number, prefix: string) =>
      (
        await seed(
          server,
          api,
          Array.from({ length: n }, (_, i) => ({ url: `https://${prefix}.example/${i}` })),
        )
      ).map((l) => l.id);
    const live = (ids: string[]) => ids.filter(Boolean).sort();

    it('after one vector is added, changed or removed, reads only that link, not every vector', async () => {
      const { api, userId } = await server.signUp('patch');
      const ids = await links(api, 24, 'patch');
      for (const id of ids.slice(0, 20)) await store(id, [1, 0, 0, 0]);
      const get = cached(userId);
      const first = await get();
      expect([first.fullLoads, first.patches, first.vectors.live]).toEqual([1, 0, 20]);

      // A link analysed: its row is appended.
      await store(ids[20]!, [0, 1, 0, 0]);
      const added = await get();
      expect([added.fullLoads, added.patches]).toEqual([0, 1]);
      expect(added.vectors).toBe(first.vectors);
      expect(live(added.vectors.ids)).toEqual(ids.slice(0, 21).sort());
      const best = (q: number[], k = 1, min = 0.5) =>
        topK(added.vectors, Float32Array.from(q), k, min).map((h) => added.vectors.ids[h.index]);
      expect(best([0, 1, 0, 0])).toEqual([ids[20]]);

      // A link re-embedded: its new value is the one ranked.
      await server.database.db
        .updateTable('embeddings')
        .set({ vector: vectorBytes(Float32Array.from([0, 0, 0, 2])) })
        .where('link_id', '=', ids[3]!)
        .execute();
      const changed = await get();
      expect([changed.fullLoads, changed.patches]).toEqual([0, 1]);
      expect(best([0, 0, 0, 1])).toEqual([ids[3]]);
      expect(best([1, 0, 0, 0], 30)).not.toContain(ids[3]);

      // A deleted link and a removed vector leave the matrix: never ranked, whatever the floor.
      await api.deleteLink({ params: { id: ids[0]! } });
      await server.database.db.deleteFrom('embeddings').where('link_id', '=', ids[1]!).execute();
      const removed = await get();
      expect([removed.fullLoads, removed.patches]).toEqual([0, 1]);
      expect(removed.vectors.live).toBe(19);
      expect(best([1, 0, 0, 0], 100, -1)).not.toContain(ids[0]);
      expect(best([1, 0, 0, 0], 100, -1)).not.toContain(ids[1]);
      expect(best([1, 0, 0, 0], 100, -1)).toHaveLength(19);

      // New vectors take the freed rows first, then grow the matrix.
      const rows = removed.vectors.ids.length;
      await store(ids[21]!, [0, 0, 1, 0]);
      await store(ids[22]!, [0, 0, 1, 0]);
      await store(ids[23]!, [0, 0, 1, 0]);
      const refilled = await get();
      expect([refilled.fullLoads, refilled.patches]).toEqual([0, 1]);
      expect(refilled.vectors.ids).toHaveLength(rows + 1);
      expect(live(refilled.vectors.ids)).toEqual([...ids.slice(2, 24)].sort());
      expect(best([0, 0, 1, 0], 5)).toEqual(expect.arrayContaining([ids[21], ids[22], ids[23]]));

      // Nothing moved: the cache answers without reading.
      expect(await get()).toMatchObject({ fullLoads: 0, patches: 0 });
      // And the patched matrix ranks exactly as a fresh load of the same rows.
      const fresh = buildVectors(0, 'm1', DIMS, await repo.vectors(userId, 'm1'));
      const query = Float32Array.from([0.3, 0.2, 0.9, 0.1]);
      const ranked = (v: typeof fresh) => topK(v, query, 30, -1).map((h) => [v.ids[h.index], h.score.toFixed(5)]);
      expect(ranked(refilled.vectors).sort()).toEqual(ranked(fresh).sort());
    });

    it('reads every vector again when the changes are many, the log lacks some, or the model changed', async () => {
      const { api, userId } = await server.signUp('reload');
      const ids = await links(api, 20, 'reload');
      const get = cached(userId);
      await store(ids[0]!, [1, 0, 0, 0]);
      expect((await get()).fullLoads).toBe(1);
      // More moves than a patch is worth.
      expect(patchLimit(1)).toBe(16);
      for (const id of ids.slice(1, 18)) await store(id, [1, 0, 0, 0]);
      const many = await get();
      expect([many.fullLoads, many.patches, many.vectors.live]).toEqual([1, 0, 18]);
      // A log pruned (or older than the log): counted moves without their rows.
      await store(ids[18]!, [0, 1, 0, 0]);
      await server.database.db.deleteFrom('search_vector_log').where('user_id', '=', userId).execute();
      const missing = await get();
      expect([missing.fullLoads, missing.patches, missing.vectors.live]).toEqual([1, 1, 19]);
      // Another model: a new matrix.
      expect((await get('m2')).fullLoads).toBe(1);
    });

    it('logs one row per version move, keeps each user’s log to itself, and drops it with the user', async () => {
      const alice = await server.signUp('log-a');
      const bob = await server.signUp('log-b');
      const [a1, a2] = await links(alice.api, 2, 'log-a');
      const [b1] = await links(bob.api, 1, 'log-b');
      const v0 = await repo.version(alice.userId);
      await store(a1!, [1, 0, 0, 0]);
      await store(b1!, [1, 0, 0, 0]);
      await store(a2!, [0, 1, 0, 0], 'm2');
      await alice.api.deleteLink({ params: { id: a1! } });
      const v1 = await repo.version(alice.userId);
      expect(v1 - v0).toBe(3);
      const changes = await repo.vectorChanges(alice.userId, 'm1', v0, v1);
      expect(changes?.map((c) => [c.linkId, c.bytes === null]).sort()).toEqual(
        [
          [a1, true],
          [a2, true],
        ].sort(),
      );
      expect((await repo.vectorChanges(alice.userId, 'm2', v0, v1))?.find((c) => c.linkId === a2)?.bytes).not.toBe(
        null,
      );
      await server.database.db.deleteFrom('users').where('id', '=', bob.userId).execute();
      const left = await server.database.db
        .selectFrom('search_vector_log')
        .select('user_id')
        .where('user_id', '=', bob.userId)
        .execute();
      expect(left).toEqual([]);
    });
  });
});
