import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PageFacts } from '../src/modules/pages/extractor.js';
import { GeminiProvider } from '../src/modules/ml/providers/gemini.provider.js';
import { askWithRetries } from '../src/modules/analysis/llm-prompt.js';
import type { LlmProvider } from '../src/modules/ml/providers/llm.js';
import { OpenAiProvider } from '../src/modules/ml/providers/openai.provider.js';
import { loadCorpus, serveCorpus } from './corpus.js';
import { engines, settled, startServer, type TestServer } from './harness.js';
import { provisionedModels } from './models.js';

/** One scripted answer of the double: a status and the model's text, or a hang. */
interface Step {
  status?: number;
  text?: string;
  hang?: boolean;
}

/**
 * A local server speaking the OpenAI chat-completions and Gemini generateContent wire formats.
 * Each request takes the next scripted step (the last one repeats).
 */
class ProviderDouble {
  server!: Server;
  steps: Step[] = [];
  requests: { path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        this.requests.push({
          path: req.url ?? '',
          headers: req.headers,
          body: JSON.parse(raw || '{}') as Record<string, unknown>,
        });
        const step = this.steps.length > 1 ? this.steps.shift()! : (this.steps[0] ?? { text: '{}' });
        if (step.hang) return; // never answers: the client's timeout must fire
        res.statusCode = step.status ?? 200;
        res.setHeader('content-type', 'application/json');
        if (res.statusCode !== 200) {
          return res.end(
            JSON.stringify({ error: { message: 'scripted failure', code: res.statusCode, status: 'ERROR' } }),
          );
        }
        const text = step.text ?? '';
        if (req.url?.includes(':generateContent')) {
          return res.end(
            JSON.stringify({
              candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
              usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
            }),
          );
        }
        res.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1,
            model: 'test-model',
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const facts: PageFacts = {
  title: 'Caffeine',
  description: 'Scroobius Pip and Dr Suzi Gage sit down and chat caffeine.',
  url: 'https://example.com/ep11',
  favicon: null,
  image: null,
  lang: 'en',
  publisher: 'Acast',
  author: null,
  date: null,
  text: 'A podcast about science and drugs. '.repeat(20),
};
const vocabulary = { categories: ['Podcasts'], tags: ['science'] };
const GOOD =
  '{"category":"Podcasts","tags":["science","caffeine","#Health "],"summary":"A podcast episode about caffeine.","readLater":false}';
const policy = { timeoutMs: 500, attempts: 3, backoffBaseMs: 1 };

const double = new ProviderDouble();
beforeAll(() => double.start());
afterAll(() => double.stop());
beforeEach(() => {
  double.steps = [];
  double.requests = [];
});

const providers: [string, () => LlmProvider][] = [
  ['openai', () => new OpenAiProvider({ apiKey: 'sk-test', baseURL: `${double.url}/v1`, model: 'test-model' })],
  ['gemini', () => new GeminiProvider({ apiKey: 'gm-test', baseUrl: double.url, model: 'gemini-test' })],
];

describe.each(providers)('%s provider through its official SDK against a local double', (name, make) => {
  it('sends the page facts and the user’s vocabulary, and parses the JSON answer', async () => {
    double.steps = [{ text: GOOD }];
    const answer = await askWithRetries(make(), facts.url!, facts, vocabulary, policy);
    expect(answer).toEqual({
      category: 'Podcasts',
      tags: ['science', 'caffeine', '#Health'],
      summary: 'A podcast episode about caffeine.',
      readLater: false,
    });
    const [request] = double.requests;
    const sent = JSON.stringify(request?.body);
    expect(sent).toContain('Title: Caffeine');
    expect(sent).toContain("User's tags: science");
    if (name === 'openai') {
      expect(request?.path).toBe('/v1/chat/completions');
      expect(request?.headers.authorization).toBe('Bearer sk-test');
      expect(request?.body.model).toBe('test-model');
    } else {
      expect(request?.path).toMatch(/^\/v1beta\/models\/gemini-test:generateContent/);
      expect(request?.headers['x-goog-api-key']).toBe('gm-test');
    }
  });

  it('tolerates fenced and chatty answers', async () => {
    double.steps = [{ text: `Sure! Here is the JSON:\n\`\`\`json\n${GOOD}\n\`\`\`\nHope this helps {:` }];
    expect((await askWithRetries(make(), facts.url!, facts, vocabulary, policy)).category).toBe('Podcasts');
  });

  it('retries malformed JSON and answers that miss the schema, then succeeds', async () => {
    double.steps = [{ text: '{"category": "Podcasts", "tags": [' }, { text: '{"tags": []}' }, { text: GOOD }];
    expect((await askWithRetries(make(), facts.url!, facts, vocabulary, policy)).category).toBe('Podcasts');
    expect(double.requests).toHaveLength(3);
  });

  it('retries 429 and 500 with backoff', async () => {
    double.steps = [{ status: 429 }, { status: 500 }, { text: GOOD }];
    expect((await askWithRetries(make(), facts.url!, facts, vocabulary, policy)).category).toBe('Podcasts');
    expect(double.requests).toHaveLength(3);
  });

  it('gives up after the last attempt on persistent 500s', async () => {
    double.steps = [{ status: 500 }];
    await expect(askWithRetries(make(), facts.url!, facts, vocabulary, policy)).rejects.toThrow(/500/);
    expect(double.requests).toHaveLength(3);
  });

  it('does not retry a rejected key (401)', async () => {
    double.steps = [{ status: 401 }];
    await expect(askWithRetries(make(), facts.url!, facts, vocabulary, policy)).rejects.toThrow();
    expect(double.requests).toHaveLength(1);
  });

  it('times out a provider that never answers', async () => {
    double.steps = [{ hang: true }];
    await expect(
      askWithRetries(make(), facts.url!, facts, vocabulary, { ...policy, timeoutMs: 200, attempts: 2 }),
    ).rejects.toThrow();
    expect(double.requests).toHaveLength(2);
  });
});

const corpus = loadCorpus();

describe.skipIf(!corpus).each(engines())('analysis with an LLM provider on %s', (engine) => {
  let pages: Awaited<ReturnType<typeof serveCorpus>>;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    pages = await serveCorpus(corpus ?? []);
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await pages.close();
  });
  const start = async (env: Record<string, string>) => {
    const server = await startServer(engine, { FETCH_ALLOW_PRIVATE: 'true', AI_TIMEOUT_SECONDS: '1', ...env });
    servers.push(server);
    return server;
  };

  it('uses the provider’s answer, normalising tags against the user’s own', async () => {
    const server = await start({ AI_PROVIDER: 'openai', OPENAI_BASE_URL: `${double.url}/v1`, BILLING: 'off' });
    const { api } = await server.signUp();
    await api.createLink({ body: { url: 'https://example.com/x', title: 'x', tags: ['Science'] } });
    double.steps = [{ text: GOOD }];
    const { data } = await api.analyzeLink({ body: { url: pages.url('acast') } });
    expect(data).toMatchObject({ category: 'Podcasts', tags: ['Science', 'caffeine', 'Health'], isReadLater: false });
  });

  it('falls back to the offline model when the provider keeps failing', async () => {
    const server = await start({
      AI_PROVIDER: 'gemini',
      GEMINI_API_KEY: 'gm-test',
      GEMINI_BASE_URL: double.url,
      BILLING: 'off',
    });
    const { api } = await server.signUp();
    double.steps = [{ status: 500 }];
    const { data } = await api.analyzeLink({ body: { url: pages.url('smitten-kitchen') } });
    expect(data.category).toBe('Recipes');
    expect(double.requests.length).toBeGreaterThanOrEqual(1);
  });

  it('keeps Free users on the offline model when billing is on', async () => {
    const server = await start({ AI_PROVIDER: 'openai', OPENAI_BASE_URL: `${double.url}/v1`, BILLING: 'simulated' });
    const { api } = await server.signUp();
    double.steps = [{ text: GOOD }];
    const { data } = await api.analyzeLink({ body: { url: pages.url('smitten-kitchen') } });
    expect(data.category).toBe('Recipes');
    expect(double.requests).toHaveLength(0);
  });
});

const MODELS = provisionedModels();

describe.skipIf(!corpus || !MODELS).each(engines())('the LLM sees how the user files, on %s', (engine) => {
  let pages: Awaited<ReturnType<typeof serveCorpus>>;
  let server: TestServer;
  beforeAll(async () => {
    pages = await serveCorpus(corpus ?? []);
    server = await startServer(engine, {
      FETCH_ALLOW_PRIVATE: 'true',
      JOBS_ENABLED: 'true',
      BILLING: 'off',
      MODELS_DIR: MODELS!,
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: `${double.url}/v1`,
      AI_TIMEOUT_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await server?.close();
    await pages?.close();
  });

  const FILED = 'How the user filed their most similar links:';
  /** The user message of the last request the double received. */
  const lastPrompt = () => {
    const messages = double.requests.at(-1)?.body.messages as { role: string; content: string }[] | undefined;
    return messages?.find((m) => m.role === 'user')?.content ?? '';
  };

  it(
    "lists the user's own filing of their nearest links, never the analysis's guesses or another user's",
    {
      timeout: 120_000,
    },
    async () => {
      double.steps = [{ text: GOOD }];
      const { api, token } = await server.signUp();
      const mine: string[] = [];
      for (const name of ['economic-times', 'forbes']) {
        const link = await api.createLink({ body: { url: pages.url(name), category: 'Reading list' } });
        mine.push((await settled(server, token, link.id)).title);
      }
      // Filed by the analysis (the double's answer), not by the user: no example of theirs.
      const guessed = await api.createLink({ body: { url: pages.url('fortune') } });
      expect((await settled(server, token, guessed.id)).category).toBe('Podcasts');
      const other = await server.signUp('other');
      const theirs = await other.api.createLink({ body: { url: pages.url('techcrunch'), category: 'Secret stash' } });
      await settled(server, other.token, theirs.id);

      double.requests = [];
      await api.analyzeLink({ body: { url: pages.url('pr-newswire') } });
      const prompt = lastPrompt();
      expect(prompt).toContain(FILED);
      const examples = prompt
        .slice(prompt.indexOf(FILED))
        .split('\n')
        .slice(1)
        .filter((l) => l.startsWith('- '));
      expect(examples.length).toBeGreaterThanOrEqual(1);
      for (const line of examples) expect(line).toMatch(/ → Reading list$/);
      expect(examples.some((line) => mine.some((title) => line.includes(title)))).toBe(true);
      expect(prompt).not.toContain('Secret stash');

      // A user with nothing filed gets no such section.
      double.requests = [];
      await other.api.analyzeLink({ body: { url: pages.url('pr-newswire') } });
      expect(lastPrompt()).toContain('Title:');
      expect(lastPrompt()).not.toContain('Reading list');
    },
  );
});
