import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../src/modules/ml/embedder.js';
import { GeminiEmbeddingApi } from '../src/modules/ml/providers/gemini.embedder.js';
import { OpenAiEmbeddingApi } from '../src/modules/ml/providers/openai.embedder.js';
import { QUERY_TIMEOUT_MS, RemoteEmbedder } from '../src/modules/ml/providers/remote-embedder.js';
import { EmbeddingDouble } from './embedding-double.js';

const double = new EmbeddingDouble();
beforeAll(() => double.start());
afterAll(() => double.stop());
beforeEach(() => double.reset());

// Generous per-attempt timeout: a loaded machine must not turn a slow first answer into a retry.
const policy = { timeoutMs: 5000, attempts: 3, backoffBaseMs: 1 };
const norm = (v: Float32Array | undefined) => Math.sqrt([...(v ?? [])].reduce((s, x) => s + x * x, 0));

type Make = (options?: {
  dimensions?: number;
  sendDimensions?: boolean;
  batch?: number;
  timeoutMs?: number;
}) => Embedder;

const providers: [string, Make][] = [
  [
    'openai',
    ({ dimensions = 8, sendDimensions = false, batch, timeoutMs = policy.timeoutMs } = {}) =>
      new RemoteEmbedder(
        new OpenAiEmbeddingApi({
          apiKey: 'sk-embed',
          baseURL: `${double.url}/v1`,
          model: 'embed-test',
          dimensions,
          sendDimensions,
        }),
        { ...policy, timeoutMs },
        batch,
      ),
  ],
  [
    'gemini',
    ({ dimensions = 8, sendDimensions = false, batch, timeoutMs = policy.timeoutMs } = {}) =>
      new RemoteEmbedder(
        new GeminiEmbeddingApi({
          apiKey: 'gm-embed',
          baseUrl: double.url,
          model: 'embed-test',
          dimensions,
          sendDimensions,
        }),
        { ...policy, timeoutMs },
        batch,
      ),
  ],
];

describe.each(providers)('%s embeddings through the official SDK against a local double', (name, make) => {
  it('sends the model, the texts and the key, and answers unit vectors in input order', async () => {
    const embedder = make();
    expect(embedder.modelId).toBe(`${name}:embed-test`);
    expect(embedder.dimensions).toBe(8);
    const [pasta, empty, mars] = await embedder.embed(['Fresh pasta by hand', '  ', 'Rover lands on Mars']);
    expect(double.requests).toHaveLength(1);
    const [request] = double.requests;
    // The empty text is answered locally with a zero vector, never sent.
    expect(request?.inputs).toEqual(['Fresh pasta by hand', 'Rover lands on Mars']);
    expect(request?.model).toBe('embed-test');
    if (name === 'openai') {
      expect(request?.path).toBe('/v1/embeddings');
      expect(request?.headers.authorization).toBe('Bearer sk-embed');
      expect(request?.body).toMatchObject({ model: 'embed-test', encoding_format: 'float' });
      expect(request?.body).not.toHaveProperty('dimensions');
    } else {
      expect(request?.path).toMatch(/^\/v1beta\/models\/embed-test:batchEmbedContents/);
      expect(request?.headers['x-goog-api-key']).toBe('gm-embed');
      expect(request?.body.requests).toEqual([
        {
          content: { parts: [{ text: 'Fresh pasta by hand' }], role: 'user' },
          model: 'models/embed-test',
          taskType: 'RETRIEVAL_DOCUMENT',
        },
        {
          content: { parts: [{ text: 'Rover lands on Mars' }], role: 'user' },
          model: 'models/embed-test',
          taskType: 'RETRIEVAL_DOCUMENT',
        },
      ]);
    }
    expect(norm(pasta)).toBeCloseTo(1, 5);
    expect(norm(mars)).toBeCloseTo(1, 5);
    expect([...(empty ?? [])]).toEqual(new Array(8).fill(0));
    // Distinct topics land on distinct axes: the order of the answer was kept.
    expect([...(pasta ?? [])].reduce((s, x, i) => s + x * (mars?.[i] ?? 0), 0)).toBe(0);
  });

  it('asks for shorter vectors when told to', async () => {
    const [vector] = await make({ dimensions: 4, sendDimensions: true }).embed(['Index funds']);
    expect(vector).toHaveLength(4);
    const [request] = double.requests;
    if (name === 'openai') expect(request?.body.dimensions).toBe(4);
    else expect((request?.body.requests as { outputDimensionality?: number }[])[0]?.outputDimensionality).toBe(4);
  });

  it('clips each text to its first 300 words', async () => {
    await make().embed([`${'word '.repeat(400)}pasta`]);
    expect(double.requests[0]?.inputs[0]?.split(' ')).toHaveLength(300);
  });

  it('sends large inputs in batches', async () => {
    const texts = Array.from({ length: 10 }, (_, i) => `text number ${i}`);
    const vectors = await make({ batch: 4 }).embed(texts);
    expect(vectors).toHaveLength(10);
    expect(double.requests.map((r) => r.inputs.length)).toEqual([4, 4, 2]);
    expect(double.requests.flatMap((r) => r.inputs)).toEqual(texts);
  });

  it('retries 429 and 500, then succeeds', async () => {
    double.steps = [{ status: 429 }, { status: 500 }, {}];
    const [vector] = await make().embed(['pasta']);
    expect(norm(vector)).toBeCloseTo(1, 5);
    expect(double.requests).toHaveLength(3);
  });

  it('gives up after the last attempt on persistent 500s, and at once on a rejected key', async () => {
    double.steps = [{ status: 500 }];
    await expect(make().embed(['pasta'])).rejects.toThrow(/500/);
    expect(double.requests).toHaveLength(3);
    double.reset();
    double.steps = [{ status: 401 }];
    await expect(make().embed(['pasta'])).rejects.toThrow(/401/);
    expect(double.requests).toHaveLength(1);
  });

  it('refuses vectors of the wrong size or count instead of storing them', async () => {
    double.steps = [{ dims: 6 }];
    await expect(make().embed(['pasta'])).rejects.toThrow(/6 dimensions, not 8.*EMBEDDING_DIMENSIONS/);
    // Not retried: a misconfigured size does not fix itself.
    expect(double.requests).toHaveLength(1);
    double.reset();
    double.steps = [{ dropOne: true }];
    await expect(make().embed(['pasta', 'mars'])).rejects.toThrow(/1 vectors for 2 texts/);
  });

  it(
    'gives a search query one attempt, at most QUERY_TIMEOUT_MS: search answers from text meanwhile',
    async () => {
      double.steps = [{ status: 500 }];
      await expect(make().embed(['pasta'], 'query')).rejects.toThrow(/500/);
      expect(double.requests).toHaveLength(1);
      double.reset();
      double.steps = [{ hang: true }];
      // The analysis policy here allows 3 attempts of 60 s; a query gives up after one of
      // QUERY_TIMEOUT_MS, well within this test's time limit.
      await expect(make({ timeoutMs: 60_000 }).embed(['pasta'], 'query')).rejects.toThrow();
      expect(double.requests).toHaveLength(1);
      double.reset();
      await make().embed(['pasta'], 'query');
      if (name === 'gemini') {
        expect((double.requests[0]?.body.requests as { taskType?: string }[])[0]?.taskType).toBe('RETRIEVAL_QUERY');
      }
    },
    QUERY_TIMEOUT_MS * 5,
  );

  it('times out a provider that never answers', async () => {
    double.steps = [{ hang: true }];
    await expect(make({ timeoutMs: 300 }).embed(['pasta'])).rejects.toThrow();
    expect(double.requests).toHaveLength(3);
  });
});
