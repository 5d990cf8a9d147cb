import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiClient, type ApiClient, type Link } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { REEMBED_DEDUPE_KEY } from '../src/modules/embeddings/reembed.service.js';
import {
  ALL_MINILM_L6_V2,
  MINILM_BGE_USE_MULTILINGUAL,
  MINILM_USE_MULTILINGUAL,
} from '../src/modules/ml/local-models.js';
import { modelRank } from '../src/modules/ml/model-catalog.js';
import { USE_LITE_MODEL_ID } from '../src/modules/ml/use-lite.constants.js';
import { engines } from './harness.js';
import { provisionedModels } from './models.js';
import { createTestDatabase } from './pg.js';
import { freePort, launch, stop, until } from './processes.js';

const MODELS = provisionedModels();
/** The default offline model (decision 0019). */
const MODEL = MINILM_BGE_USE_MULTILINGUAL.id;
/** What a worker with the model embeds with: it, the older models taken from its parts, USE-lite. */
const EMBEDS = [MODEL, ALL_MINILM_L6_V2.id, MINILM_USE_MULTILINGUAL.id, USE_LITE_MODEL_ID];

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
  violin: {
    title: 'Choosing a violin bow',
    description: 'Pernambuco, carbon fibre and what a string player should try.',
    text: 'Balance point, weight and the hair matter more than the price tag.',
  },
};

/** Whether a process has mapped the model runtime's native library (onnxruntime) or tfjs's WASM backend. */
function loadedRuntimes(pid: number): string[] {
  const maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
  return ['onnxruntime', 'tfjs'].filter((name) => maps.includes(name));
}

const rssMb = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/**
 * The `api` role never loads a model: workers embed its queries over LISTEN/NOTIFY, and the
 * deployment's search model only moves up the catalog whatever workers come and go (decision 0018).
 * Real processes on one PostgreSQL database, the provisioned model folder.
 */
describe.runIf(MODELS && existsSync('/proc/self/maps')).each(engines().filter((e) => e === 'postgres'))(
  'model roles on %s',
  () => {
    const cleanup: (() => unknown)[] = [];
    let pages: Server;
    let pagesBase = '';
    let databaseUrl = '';
    let database: Database;
    let dataDir = '';
    let noModels = '';
    let api: ApiClient;
    let apiProcess: ChildProcess;
    const links: Link[] = [];
    /** Workers started, oldest first. */
    const workers: ChildProcess[] = [];

    const start = async (role: 'api' | 'worker', extra: Record<string, string> = {}) => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = await launch(
        {
          ROLE: role,
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          LOG_LEVEL: 'error',
          BILLING: 'off',
          FETCH_ALLOW_PRIVATE: 'true',
          // The api could load the model from here: it must not.
          MODELS_DIR: MODELS!,
          QUERY_EMBED_TIMEOUT_MS: '1500',
          ...extra,
        },
        url,
      );
      cleanup.push(() => {
        if (child.signalCode === null && child.exitCode === null) child.kill('SIGCONT');
        return stop(child);
      });
      if (role === 'worker') workers.push(child);
      return { child, url };
    };
    const search = async (query: string) => (await api.search({ query: { query } })).data;
    const searchState = () =>
      database.db.selectFrom('search_models').select(['target', 'target_rank', 'active']).executeTakeFirstOrThrow();
    const liveWorkers = () => database.db.selectFrom('model_workers').selectAll().execute();
    const vectors = () => database.db.selectFrom('embeddings').select(['link_id', 'model']).execute();
    const reembedJob = () =>
      database.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', REEMBED_DEDUPE_KEY).executeTakeFirst();
    const save = async (name: string, suffix = '') => {
      const link = await api.createLink({ body: { url: `${pagesBase}/${name}${suffix}` } });
      links.push(link);
      return link;
    };
    const analysed = () =>
      until('every link analysed', async () => {
        const all = await Promise.all(links.map((l) => api.getLink({ params: { id: l.id } })));
        return all.every((l) => l.analysisStatus !== 'pending');
      });
    /** Waits until `count` workers are registered with a fresh heartbeat. */
    const workersReady = (count: number) =>
      until(`${count} worker(s) ready to embed`, async () => (await liveWorkers()).length === count);

    beforeAll(async () => {
      pages = createServer((req, res) => {
        const page = PAGES[(req.url ?? '').slice(1).split('?')[0] ?? ''];
        if (!page) return void res.writeHead(404).end();
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          `<html lang="en"><head><title>${page.title}</title><meta name="description" content="${page.description}"></head>` +
            `<body><article><h1>${page.title}</h1><p>${page.text}</p></article></body></html>`,
        );
      });
      await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
      cleanup.push(() => {
        pages.closeAllConnections();
        pages.close();
      });
      pagesBase = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
      const pg = await createTestDatabase();
      cleanup.push(() => pg.drop());
      databaseUrl = pg.url;
      database = openDatabase({ databaseUrl, dataDir: tmpdir(), poolSize: 2 });
      cleanup.push(() => database.close());
      await migrateToLatest(database);
      dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-model-roles-'));
      noModels = mkdtempSync(path.join(tmpdir(), 'linkwise-no-models-'));
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      cleanup.push(() => rmSync(noModels, { recursive: true, force: true }));
      const started = await start('api');
      apiProcess = started.child;
      const { token } = await createApiClient({ baseUrl: started.url }).register({
        body: { email: 'roles@example.com', username: 'roles', password: 'correct horse' },
      });
      api = createApiClient({ baseUrl: started.url, getToken: () => token });
    }, 120_000);

    afterAll(async () => {
      for (const fn of cleanup.reverse()) await fn();
    });

    it('an api and a worker answer a search by meaning; the api never loads a model runtime', async () => {
      const worker = await start('worker');
      await workersReady(1);
      const [registered] = await liveWorkers();
      expect(JSON.parse(registered!.models)).toEqual(EMBEDS);
      expect(await searchState()).toEqual({ target: MODEL, target_rank: modelRank(MODEL), active: MODEL });
      for (const name of ['pasta', 'mars', 'puppy']) await save(name);
      await analysed();
      expect(new Set((await vectors()).map((v) => v.model))).toEqual(new Set([MODEL]));

      const [pasta] = await search('italian noodles');
      expect([pasta?.title, pasta?.match_type]).toEqual(['Fresh pasta by hand', 'semantic']);
      const [space] = await search('spacecraft on the red planet');
      expect([space?.title, space?.match_type]).toEqual(['Rover lands on Mars', 'semantic']);
      // The tag manager's vectors come from the worker too (nothing to suggest, but no failure).
      expect((await api.listTags()).suggestions).toEqual([]);

      // The worker mapped the model runtime; the api, which searched by meaning, did not.
      expect(loadedRuntimes(worker.child.pid!)).toContain('onnxruntime');
      expect(loadedRuntimes(apiProcess.pid!)).toEqual([]);
      console.info(
        `RSS after a search by meaning: api ${rssMb(apiProcess.pid!).toFixed(0)} MB, worker ${rssMb(worker.child.pid!).toFixed(0)} MB`,
      );
    }, 180_000);

    it('answers from text when no worker embeds the query in time', async () => {
      const registered = (await liveWorkers()).map((w) => w.id);
      // The worker is frozen: its heartbeat is still fresh, it answers nothing.
      const worker = workers[0]!;
      worker.kill('SIGSTOP');
      try {
        const hits = await search('fresh pasta');
        expect(hits.map((h) => [h.title, h.match_type])).toEqual([['Fresh pasta by hand', 'text']]);
        // By meaning alone nothing is found, and the answer still comes.
        expect(await search('obedience lessons for a young hound')).toEqual([]);
        expect((await liveWorkers()).map((w) => w.id)).toEqual(registered);
      } finally {
        worker.kill('SIGCONT');
      }
    }, 60_000);

    it('a worker without the model folder next to one with it never moves the search model back', async () => {
      const withModel = workers[0]!;
      const lagging = await start('worker', { MODELS_DIR: noModels });
      await workersReady(2);
      const models = (await liveWorkers()).map((w) => JSON.parse(w.models) as string[]).sort();
      expect(models).toEqual([EMBEDS, [USE_LITE_MODEL_ID]]);
      // Its start changed nothing: no run for its own model, the target and the active model stay.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await searchState()).toEqual({ target: MODEL, target_rank: modelRank(MODEL), active: MODEL });
      expect((await reembedJob())?.payload ?? '').not.toContain(USE_LITE_MODEL_ID);

      // Only the lagging worker runs jobs now: it analyses a new link with USE-lite and queues the run
      // into the target, which it leaves to a worker that has the model.
      await stop(withModel);
      await workersReady(1);
      const violin = await save('violin');
      await analysed();
      expect((await vectors()).find((v) => v.link_id === violin.id)?.model).toBe(USE_LITE_MODEL_ID);
      await until('the run into the target to be queued', async () => (await reembedJob())?.status === 'queued');
      expect(JSON.parse(String((await reembedJob())?.payload))).toMatchObject({
        model: MODEL,
        dims: MINILM_BGE_USE_MULTILINGUAL.dimensions,
      });
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect((await reembedJob())?.status).toBe('queued');
      expect(await searchState()).toEqual({ target: MODEL, target_rank: modelRank(MODEL), active: MODEL });
      // Search keeps answering: the new link by its words.
      const [byWords] = await search('violin bow');
      expect([byWords?.title, byWords?.match_type]).toEqual(['Choosing a violin bow', 'text']);

      // A worker with the model comes back: it takes the run, and every link has its vector again.
      await start('worker');
      await until('the run to finish', async () => (await reembedJob())?.status === 'done');
      expect(new Set((await vectors()).map((v) => v.model))).toEqual(new Set([MODEL]));
      expect(await searchState()).toEqual({ target: MODEL, target_rank: modelRank(MODEL), active: MODEL });
      await until('a worker with the model to be ready', async () =>
        (await liveWorkers()).some((w) => (JSON.parse(w.models) as string[])[0] === MODEL),
      );
      const [fiddle] = await search('string instrument accessories');
      expect([fiddle?.title, fiddle?.match_type]).toEqual(['Choosing a violin bow', 'semantic']);
      await stop(lagging.child);
      expect(loadedRuntimes(apiProcess.pid!)).toEqual([]);
    }, 240_000);
  },
);
