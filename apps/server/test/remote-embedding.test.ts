import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiClient, Link } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_ANCHORS } from '../src/modules/analysis/category-model.js';
import { REEMBED_DEDUPE_KEY } from '../src/modules/embeddings/reembed.service.js';

const REEMBED_LINKS_JOB = 'reembed-links';
import { EmbeddingDouble } from './embedding-double.js';
import { engines, startServer, upgrade, type TestServer } from './harness.js';

/** Pages on distinct topics; the queries below share no word with the page they should find. */
const PAGES: Record<string, { title: string; description: string; text: string }> = {
  pasta: {
    title: 'Fresh pasta by hand',
    description: 'A simple recipe: flour, eggs and a rolling pin.',
    text: 'Knead the dough until smooth, cook the ribbons for two minutes in salted water and serve with butter.',
  },
  mars: {
    title: 'Rover lands on Mars',
    description: 'NASA probe touches down safely after seven months.',
    text: 'Engineers cheered as the rover sent its first pictures of the dusty crater floor.',
  },
  puppy: {
    title: 'Training your puppy',
    description: 'Teach a young dog to sit and stay.',
    text: 'Short daily sessions with treats work better than long ones.',
  },
};

async function servePages(): Promise<{ url: (name: string) => string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const page = PAGES[(req.url ?? '').slice(1).split('?')[0] ?? ''];
    if (!page) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<html><head><title>${page.title}</title><meta name="description" content="${page.description}"></head>` +
        `<body><article><h1>${page.title}</h1><p>${page.text}</p></article></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (name) => `${base}/${name}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const until = async (what: string, check: () => Promise<boolean> | boolean, tries = 600) => {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe.each(engines())('remote embedding model on %s', (engine) => {
  const double = new EmbeddingDouble();
  let pages: Awaited<ReturnType<typeof servePages>>;
  let server: TestServer;
  /** The environment of a deployment whose OpenAI-compatible server serves `model` (8 dimensions). */
  const env = (model: string, extra: Record<string, string> = {}) => ({
    FETCH_ALLOW_PRIVATE: 'true',
    JOBS_ENABLED: 'true',
    AI_TIMEOUT_SECONDS: '5', // generous: a slow answer on a loaded machine must not become a retry
    OPENAI_BASE_URL: `${double.url}/v1`,
    OPENAI_API_KEY: 'sk-embed',
    OPENAI_EMBEDDING_MODEL: model,
    EMBEDDING_DIMENSIONS: '8',
    ...extra,
  });

  beforeAll(async () => {
    await double.start();
    pages = await servePages();
    server = await startServer(engine, env('topic-a'));
  });
  afterAll(async () => {
    await server?.close();
    await pages.close();
    await double.stop();
  });

  const vectors = () =>
    server.database.db.selectFrom('embeddings').select(['link_id', 'model', 'dims']).orderBy('link_id').execute();
  const reembedJobs = () =>
    server.database.db.selectFrom('jobs').selectAll().where('type', '=', REEMBED_LINKS_JOB).execute();
  const search = async (api: ApiClient, query: string) => (await api.search({ query: { query } })).data;

  let api: ApiClient;
  let links: Link[];

  it('stores vectors of the remote model for a Pro user’s links, with categories from the offline model', async () => {
    ({ api } = await server.signUp('pro'));
    await upgrade(server, api);
    links = [];
    for (const name of Object.keys(PAGES)) links.push(await api.createLink({ body: { url: pages.url(name) } }));
    await until('analysis', async () => {
      const all = await Promise.all(links.map((l) => api.getLink({ params: { id: l.id } })));
      return all.every((l) => l.analysisStatus !== 'pending');
    });
    const analysed = await Promise.all(links.map((l) => api.getLink({ params: { id: l.id } })));
    expect(analysed.map((l) => l.analysisStatus)).toEqual(['done', 'done', 'done']);
    expect(analysed[0]?.category).toBe('Recipes');
    expect(await vectors()).toEqual(
      links
        .map((l) => ({ link_id: l.id, model: 'openai:topic-a', dims: 8 }))
        .sort((a, b) => (a.link_id < b.link_id ? -1 : 1)),
    );
    // One remote request per page, with the same text the offline model read; the category anchors
    // were never sent (they are embedded by the offline model).
    const sent = double.requests.flatMap((r) => r.inputs);
    const anchors = new Set(Object.values(CATEGORY_ANCHORS).flat());
    expect(sent.some((t) => anchors.has(t))).toBe(false);
    const pasta = PAGES.pasta!;
    const pastaText = sent.find((t) => t.startsWith(`${pasta.title}. ${pasta.description}. `));
    expect(pastaText).toContain('Knead the dough until smooth');
    expect(sent.filter((t) => t === pastaText)).toHaveLength(1);
  });

  it('finds a link by meaning through the remote model when no word matches', async () => {
    const [first] = await search(api, 'italian noodles');
    expect([first?.title, first?.match_type]).toEqual(['Fresh pasta by hand', 'semantic']);
    const [space] = await search(api, 'spacecraft on the red planet');
    expect([space?.title, space?.match_type]).toEqual(['Rover lands on Mars', 'semantic']);
    // The query went to the remote model too.
    expect(double.requests.at(-1)?.inputs).toEqual(['spacecraft on the red planet']);
  });

  it('re-embeds in the background after a model change; search keeps answering from text meanwhile', async () => {
    // The new model's server is down at first: the re-embedding job waits for its retry.
    double.failing.add('topic-b');
    await server.restart(env('topic-b'));
    await until('the first attempt of the re-embedding job', async () => {
      const [job] = await reembedJobs();
      return job?.status === 'queued' && job.attempts === 1;
    });
    expect(await search(api, 'italian noodles')).toEqual([]);
    expect((await search(api, 'pasta')).map((l) => [l.title, l.match_type])).toEqual([['Fresh pasta by hand', 'text']]);
    expect((await vectors()).map((v) => v.model)).toEqual(['openai:topic-a', 'openai:topic-a', 'openai:topic-a']);

    // Restarted mid-way: the run it left continues; no second job.
    await server.restart(env('topic-b'));
    const jobs = await reembedJobs();
    expect(jobs.map((j) => [j.status, j.attempts])).toEqual([['queued', 1]]);

    double.failing.clear();
    server.clock.advance(60_000); // past the job's backoff
    await until('the re-embedding to finish', async () => (await reembedJobs())[0]?.status === 'done');
    expect(await reembedJobs()).toHaveLength(1);
    expect((await vectors()).map((v) => v.model)).toEqual(['openai:topic-b', 'openai:topic-b', 'openai:topic-b']);
    const [first] = await search(api, 'italian noodles');
    expect([first?.title, first?.match_type]).toEqual(['Fresh pasta by hand', 'semantic']);
  });

  /** Brings the model back, then waits for the re-embedding run to give the link its vector and end. */
  const vectorOnceModelIsBack = async (linkId: string) => {
    double.failing.clear();
    await until('the link’s vector', async () => {
      server.clock.advance(60_000);
      return (await vectors()).some((v) => v.link_id === linkId && v.model === 'openai:topic-b');
    });
    await until('the run to finish', async () => (await reembedJobs())[0]?.status === 'done');
  };

  it('queues re-embedding when a failed analysis leaves a link without a vector', async () => {
    expect((await reembedJobs()).map((j) => j.status)).toEqual(['done']);
    double.failing.add('topic-b');
    const lost = await api.createLink({ body: { url: pages.url('missing'), title: 'Gone page' } });
    await until('the analysis to give up', async () => {
      server.clock.advance(10 * 60_000); // past each retry's backoff
      return (await api.getLink({ params: { id: lost.id } })).analysisStatus === 'failed';
    });
    expect((await vectors()).some((v) => v.link_id === lost.id)).toBe(false);
    // The model is back: the run the failed analysis queued gives the link its vector.
    await vectorOnceModelIsBack(lost.id);
  });

  it('saves an analysis when only the embedding model is down, and the queued run adds the vector', async () => {
    double.failing.add('topic-b');
    const saved = await api.createLink({ body: { url: `${pages.url('puppy')}?again=1` } });
    await until('the analysis', async () => {
      server.clock.advance(60_000);
      return (await api.getLink({ params: { id: saved.id } })).analysisStatus !== 'pending';
    });
    // Done, not failed: the page was read and its fields kept, only the vector is missing.
    expect(await api.getLink({ params: { id: saved.id } })).toMatchObject({
      analysisStatus: 'done',
      title: 'Training your puppy',
    });
    expect((await vectors()).some((v) => v.link_id === saved.id)).toBe(false);
    await vectorOnceModelIsBack(saved.id);
  });

  it('re-embeds a large library in batches of one job, and queues nothing when every vector is current', async () => {
    await server.restart(env('topic-b', { JOBS_ENABLED: 'false', BILLING: 'off' }));
    const { api: bulk } = await server.signUp('bulk');
    const made: Link[] = [];
    for (let i = 0; i < 70; i++) {
      made.push(await bulk.createLink({ body: { url: `https://bulk.example/${i}`, title: `Bulk link ${i}` } }));
    }
    // Analysed without a vector (their analysis failed while the model was down): not pending.
    const ids = made.map((l) => l.id);
    await server.database.db.updateTable('links').set({ analysis_status: 'failed' }).where('id', 'in', ids).execute();
    // Written by an install from before re-embedding existed: no finished run is recorded, so the
    // start-up check reads the links (a failed analysis today queues the run itself).
    await server.database.db.deleteFrom('jobs').where('dedupe_key', '=', REEMBED_DEDUPE_KEY).execute();
    await server.database.db
      .updateTable('jobs')
      .set({ status: 'failed' })
      .where('type', '=', 'analyze-link')
      .where('status', '=', 'queued')
      .execute();
    double.reset();
    await server.restart(env('topic-b', { BILLING: 'off' }));
    await until('the bulk re-embedding', async () => {
      const [job] = await reembedJobs();
      const stored = new Set((await vectors()).map((v) => v.link_id));
      return job?.status === 'done' && ids.every((id) => stored.has(id));
    });
    expect(double.requests.map((r) => r.inputs.length)).toEqual([64, 6]);
    expect(new Set((await vectors()).map((v) => v.model))).toEqual(new Set(['openai:topic-b']));
    const [job] = await reembedJobs();
    expect(JSON.parse(job?.payload ?? '{}')).toMatchObject({ model: 'openai:topic-b', done: 64 });

    double.reset();
    const before = (await reembedJobs())[0]?.updated_at;
    await server.restart(env('topic-b', { BILLING: 'off' }));
    // Closing waits for the start-up check (not a fixed delay): its outcome is final after this.
    await server.restart(env('topic-b', { JOBS_ENABLED: 'false', BILLING: 'off' }));
    expect((await reembedJobs()).map((j) => [j.status, j.updated_at])).toEqual([['done', before]]);
    expect(double.requests).toEqual([]);
  });
});
