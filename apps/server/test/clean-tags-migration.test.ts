import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as cleanTags } from '../src/db/migrations/0020-clean-tags.js';
import { engines, seed, startServer, type TestServer } from './harness.js';

/**
 * Tags saved before tags dropped invisible characters: written here as those releases wrote them
 * (name and key with the zero-width space or BOM in them), then migration 0020 runs over them.
 */
describe.each(engines())('migration 0020 (tags with invisible characters) on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  it('renames them, merges them into the tag they look like, drops empty ones, and #tag finds them', async () => {
    const { api, userId } = await server.signUp('legacy');
    const { api: other, userId: otherId } = await server.signUp('neighbour');
    const [both, legacyOnly, renamed, blank] = await seed(server, api, [
      { url: 'https://tags.example/both', title: 'Both spellings', tags: ['dataviz', 'charts'] },
      { url: 'https://tags.example/legacy', title: 'Legacy only' },
      { url: 'https://tags.example/renamed', title: 'Renamed', tags: ['maps'] },
      { url: 'https://tags.example/blank', title: 'Blank tag', tags: ['maps'] },
    ]);
    const [theirs] = await seed(server, other, [{ url: 'https://tags.example/theirs', title: 'Theirs' }]);
    const db = server.database.db as unknown as Kysely<unknown>;
    const legacyTag = async (id: string, user: string, name: string, links: [string, number][]) => {
      const key = name.normalize('NFKC').toLocaleLowerCase('en-US');
      await sql`insert into tags (id, user_id, name, name_key, created_at) values (${id}, ${user}, ${name}, ${key}, 0)`.execute(
        db,
      );
      for (const [linkId, position] of links) {
        await sql`insert into link_tags (link_id, tag_id, position) values (${linkId}, ${id}, ${position})`.execute(db);
      }
    };
    // The same word as 'dataviz', at the front of one link that has both and alone on another.
    await legacyTag('legacy-dataviz', userId, 'data\u200bviz', [
      [both!.id, -1],
      [legacyOnly!.id, 0],
    ]);
    await legacyTag('legacy-python', userId, '\ufeffPython', [[renamed!.id, 1]]);
    await legacyTag('legacy-blank', userId, '\u200b', [[blank!.id, 1]]);
    // Another user's 'dataviz' is theirs: it is renamed, never merged across users.
    await legacyTag('legacy-theirs', otherId, 'data\u200bviz', [[theirs!.id, 0]]);
    expect((await api.search({ query: { query: '#dataviz' } })).data.map((l) => l.title)).toEqual(['Both spellings']);

    await cleanTags(db);

    const tags = await api.listTags();
    expect(tags.data.map((t) => [t.name, t.count]).sort()).toEqual([
      ['Python', 1],
      ['charts', 1],
      ['dataviz', 2],
      ['maps', 2],
    ]);
    const byUrl = async (client = api): Promise<Record<string, string[]>> =>
      Object.fromEntries((await client.listLinks()).data.map((l) => [new URL(l.url).pathname.slice(1), l.tags]));
    expect(await byUrl()).toEqual({
      both: ['dataviz', 'charts'],
      legacy: ['dataviz'],
      renamed: ['maps', 'Python'],
      blank: ['maps'],
    });
    expect((await api.search({ query: { query: '#dataviz' } })).data.map((l) => l.title).sort()).toEqual([
      'Both spellings',
      'Legacy only',
    ]);
    expect((await api.search({ query: { query: '#python' } })).data.map((l) => l.title)).toEqual(['Renamed']);
    expect(await byUrl(other)).toEqual({ theirs: ['dataviz'] });
    expect((await other.search({ query: { query: '#dataviz' } })).data.map((l) => l.title)).toEqual(['Theirs']);
    // A second run finds nothing left to do.
    await cleanTags(db);
    expect((await api.listTags()).data).toEqual(tags.data);
  });
});
