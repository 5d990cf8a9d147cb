import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { AddRoute } from '../../http/route-adapter.js';
import type { Clock } from '../../lib/clock.js';
import { analyzeLinkJob } from '../jobs/analyze-link.job.js';
import { reembedLinksJob } from '../jobs/reembed-links.job.js';
import { JobRunner } from '../jobs/job-runner.js';
import { JobRepository } from '../jobs/job.repository.js';
import { AnalysisRepository } from './analysis.repository.js';
import { SubscriptionRepository } from '../billing/subscription.repository.js';
import { LinkRepository } from '../links/link.repository.js';
import { analysisRoutes } from './analysis.routes.js';
import { AnalysisService } from './analysis.service.js';
import { CategoryModel } from './category-model.js';
import type { Embedder } from './embedder.js';
import { WorkerExtractor } from './extractor.js';
import { PageFetcher } from './fetcher.js';
import { GeminiEmbeddingApi } from './providers/gemini.embedder.js';
import { GeminiProvider } from './providers/gemini.provider.js';
import type { LlmPolicy, LlmProvider } from './providers/llm.js';
import { OpenAiEmbeddingApi } from './providers/openai.embedder.js';
import { OpenAiProvider } from './providers/openai.provider.js';
import { RemoteEmbedder } from './providers/remote-embedder.js';
import { ReembedRepository } from './reembed.repository.js';
import { ReembedService } from './reembed.service.js';

/** One retry policy for every remote model call: AI_TIMEOUT_SECONDS per attempt, 3 attempts. */
function policyFrom(config: Config): LlmPolicy {
  return { timeoutMs: config.AI_TIMEOUT_SECONDS * 1000, attempts: 3, backoffBaseMs: 500 };
}

/** The remote embedding model of OPENAI_EMBEDDING_MODEL or GEMINI_EMBEDDING_MODEL; null: none set. */
export function remoteEmbedderFrom(config: Config): Embedder | null {
  const remote = config.remoteEmbedding;
  if (!remote) return null;
  const { model, dimensions, sendDimensions } = remote;
  const api =
    remote.provider === 'openai'
      ? new OpenAiEmbeddingApi({
          apiKey: config.OPENAI_API_KEY,
          baseURL: config.OPENAI_BASE_URL,
          model,
          dimensions,
          sendDimensions,
        })
      : new GeminiEmbeddingApi({
          apiKey: config.GEMINI_API_KEY ?? '',
          baseUrl: config.GEMINI_BASE_URL,
          model,
          dimensions,
          sendDimensions,
        });
  return new RemoteEmbedder(api, policyFrom(config));
}

function llmFrom(config: Config): LlmProvider | null {
  if (config.AI_PROVIDER === 'openai') {
    return new OpenAiProvider({
      apiKey: config.OPENAI_API_KEY,
      baseURL: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
    });
  }
  if (config.AI_PROVIDER === 'gemini' && config.GEMINI_API_KEY) {
    return new GeminiProvider({
      apiKey: config.GEMINI_API_KEY,
      baseUrl: config.GEMINI_BASE_URL,
      model: config.GEMINI_MODEL,
    });
  }
  return null;
}

/**
 * Wires link intelligence: fetcher, embedding worker, providers, the analysis routes and the
 * in-process job worker (started with the server, drained on close).
 */
export function buildAnalysis(deps: {
  app: FastifyInstance;
  add: AddRoute;
  config: Config;
  database: Database;
  clock: Clock;
  /** The model of the stored link vectors; shared with search, which embeds queries with it. */
  embedder: Embedder;
  /** The offline model the category anchors are tuned on (the same object when no remote model is set). */
  categoryEmbedder: Embedder;
}): { jobsQueued: () => void } {
  const { app, add, config, database, clock, embedder, categoryEmbedder } = deps;
  const fetcher = new PageFetcher({ allowPrivate: config.FETCH_ALLOW_PRIVATE });
  const extractor = new WorkerExtractor();
  const jobs = new JobRepository(database.db, database.engine);
  const runner = new JobRunner(jobs, clock, app.log, {
    concurrency: config.JOB_CONCURRENCY,
    lockTimeoutMs: config.JOB_LOCK_TIMEOUT_SECONDS * 1000,
  });
  const reembed = new ReembedService({
    repo: new ReembedRepository(database.db, database.engine),
    jobs,
    embedder,
    clock,
    log: app.log,
    nudge: () => runner.nudge(),
  });
  const analysis = new AnalysisService({
    fetcher,
    extractor,
    embedder,
    categories: new CategoryModel(categoryEmbedder),
    llm: llmFrom(config),
    llmPolicy: policyFrom(config),
    repo: new AnalysisRepository(database.db, database.engine),
    links: new LinkRepository(database.db, database.engine),
    subscriptions: new SubscriptionRepository(database.db),
    nudge: () => runner.nudge(),
    vectorMissing: () => reembed.queue(),
    billingMode: config.BILLING,
    clock,
    log: app.log,
  });
  runner.register(analyzeLinkJob(analysis));
  runner.register(reembedLinksJob(reembed, app.log));
  analysisRoutes(add, analysis);
  // The start-up check reads every link at worst (only when no finished run for this model is
  // recorded): it runs after start-up, not before it.
  let checking: Promise<unknown> = Promise.resolve();
  if (config.JOBS_ENABLED) {
    app.addHook('onReady', () => {
      runner.start();
      checking = reembed.queueIfNeeded().catch((error: unknown) => {
        app.log.error({ err: error }, 'could not check for links to re-embed');
      });
    });
  }
  app.addHook('onClose', async () => {
    await checking;
    await runner.stop();
    await embedder.close();
    if (categoryEmbedder !== embedder) await categoryEmbedder.close();
    await extractor.close();
    await fetcher.close();
  });
  return { jobsQueued: () => runner.nudge() };
}
