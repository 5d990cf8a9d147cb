import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus, serveCorpus } from './corpus.js';
import { engines, settled, startServer, upgrade, type TestServer } from './harness.js';
import { provisionedModels } from './models.js';

const corpus = loadCorpus();
const MODELS = provisionedModels();

/**
 * Paraphrases (bench/search-queries.json) whose page the joined cosine puts second, behind a page
 * it also lets through, and the default model's ranking (decision 0022) puts first.
 */
const CASES = [
  { query: 'laureate troubadour of the sixties', target: 'wikipedia', before: 'vimeo' },
  { query: 'lagos clinic software boss interviewed', target: 'theflip', before: 'business-today' },
];

describe.skipIf(!corpus || !MODELS).each(engines())('what search finds by meaning on %s', (engine) => {
  let server: TestServer;
  let pages: Awaited<ReturnType<typeof serveCorpus>>;

  beforeAll(async () => {
    pages = await serveCorpus(corpus ?? []);
    server = await startServer(engine, {
      FETCH_ALLOW_PRIVATE: 'true',
      JOBS_ENABLED: 'true',
      MODELS_DIR: MODELS!,
    });
  });
  afterAll(async () => {
    await server?.close();
    await pages?.close();
  });

  /** A Pro user whose library holds these corpus pages, analysed; search answers with page names. */
  async function library(names: string[]) {
    const { api, token } = await server.signUp('pro');
    await upgrade(server, api);
    const byId = new Map<string, string>();
    for (const name of names) byId.set((await api.createLink({ body: { url: pages.url(name) } })).id, name);
    for (const id of byId.keys()) expect((await settled(server, token, id)).analysisStatus).toBe('done');
    return async (query: string) =>
      (await api.search({ query: { query } })).data.map((l) => ({
        name: byId.get(l.id),
        matchType: l.match_type,
        similarity: l.similarity,
      }));
  }

  it(
    'puts the page the query means first, keeps the one the cosine preferred, and finds nothing for nonsense',
    { timeout: 180_000 },
    async () => {
      const search = await library([...new Set(CASES.flatMap((c) => [c.target, c.before]))]);
      for (const { query, target, before } of CASES) {
        const found = await search(query);
        expect([query, found[0]?.name, found[0]?.matchType]).toEqual([query, target, 'semantic']);
        // Ordered, not filtered: the page the joined cosine put first is still found.
        expect(found.map((f) => f.name)).toContain(before);
        for (const { similarity } of found) expect(similarity >= 0 && similarity <= 1).toBe(true);
      }
      expect(await search('knitting patterns for wool socks')).toEqual([]);
    },
  );

  it(
    'drops pages found by close spellings when the model places them below its floor',
    { timeout: 180_000 },
    async () => {
      const search = await library(['usa-today', 'postplanner', 'linkedin-company']);
      // No page has either word; close spellings ("media", …) match words of all three.
      expect(await search('medieval falconry')).toEqual([]);
      // A misspelt word whose page is about the query is still corrected.
      expect((await search('facebok engagement')).map((f) => [f.name, f.matchType])[0]).toEqual([
        'postplanner',
        'text',
      ]);
    },
  );

  it(
    'drops pages found by the start of the last word when the model places them below its floor',
    { timeout: 180_000 },
    async () => {
      const search = await library(['smitten-kitchen', 'the-guardian', 'segment-academy']);
      // "cooking" also starts "cookie(s)", all over the two pages about tracking cookies.
      const cooking = await search('cooking');
      expect(cooking.map((f) => f.name)).toEqual(['smitten-kitchen']);
      // A word being typed still finds what it starts, and a whole word its pages.
      expect((await search('cooki')).map((f) => f.name)).toEqual(expect.arrayContaining(['the-guardian']));
      expect((await search('cookies')).map((f) => f.name)).toEqual(
        expect.arrayContaining(['the-guardian', 'segment-academy']),
      );
    },
  );

  it(
    'leaves out pages found by meaning with no confidence, or far weaker than the best match',
    { timeout: 180_000 },
    async () => {
      const search = await library(['medium', 'learnnode', 'wsj', 'transistor', 'github', 'acast', 'twitter-image']);
      // The joined cosine lets the last three through; the ranking puts them at the floor (similarity 0).
      const bundler = await search('js packer new big version launch');
      expect(bundler.map((f) => f.name)).toEqual(['medium', 'learnnode']);
      // The image tweet is a tenth as close as the podcast episode the query describes.
      expect((await search('show discussing the stimulant in my morning espresso')).map((f) => f.name)).toEqual([
        'acast',
      ]);
      for (const { similarity } of bundler) expect(similarity).toBeGreaterThan(0);
    },
  );
});
