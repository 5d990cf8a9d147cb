import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { AddRoute } from '../../http/route-adapter.js';
import type { Clock } from '../../lib/clock.js';
import { analyzeLinkJob } from '../jobs/analyze-link.job.js';
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
import { GeminiProvider } from './providers/gemini.provider.js';
import type { LlmProvider } from './providers/llm.js';
import { OpenAiProvider } from './providers/openai.provider.js';

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
  /** Shared with search, which embeds queries with the same model. */
  embedder: Embedder;
}): { jobsQueued: () => void } {
  const { app, add, config, database, clock, embedder } = deps;
  const fetcher = new PageFetcher({ allowPrivate: config.FETCH_ALLOW_PRIVATE });
  const extractor = new WorkerExtractor();
  const jobs = new JobRepository(database.db, database.engine);
  const runner = new JobRunner(jobs, clock, app.log, {
    concurrency: config.JOB_CONCURRENCY,
    lockTimeoutMs: config.JOB_LOCK_TIMEOUT_SECONDS * 1000,
  });
  const analysis = new AnalysisService({
    fetcher,
    extractor,
    embedder,
    categories: new CategoryModel(embedder),
    llm: llmFrom(config),
    llmPolicy: { timeoutMs: config.AI_TIMEOUT_SECONDS * 1000, attempts: 3, backoffBaseMs: 500 },
    repo: new AnalysisRepository(database.db, database.engine),
    links: new LinkRepository(database.db, database.engine),
    subscriptions: new SubscriptionRepository(database.db),
    jobs,
    nudge: () => runner.nudge(),
    billingMode: config.BILLING,
    clock,
    log: app.log,
  });
  runner.register(analyzeLinkJob(analysis));
  analysisRoutes(add, analysis);
  if (config.JOBS_ENABLED) {
    app.addHook('onReady', () => runner.start());
  }
  app.addHook('onClose', async () => {
    await runner.stop();
    await embedder.close();
    await extractor.close();
    await fetcher.close();
  });
  return { jobsQueued: () => runner.nudge() };
}
