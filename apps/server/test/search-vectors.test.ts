import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchRepository } from '../src/modules/search/search.repository.js';
import { buildVectors, topK, VectorCache, vectorBytes } from '../src/modules/search/vector-index.js';
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
});
