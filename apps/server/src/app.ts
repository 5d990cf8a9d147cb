import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Messages, routes } from '@linkwise/contract';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { AppError } from './errors.js';
import { registerCompression } from './http/compression.js';
import { installConnectionLimits } from './http/connection-limits.js';
import { installErrorHandler } from './http/error-handler.js';
import { InFlight } from './http/in-flight.js';
import { makeRouter } from './http/route-adapter.js';
import { httpServerOptions } from './http/server-options.js';
import { serveWebApp } from './http/web-app.js';
import { systemClock, type Clock } from './lib/clock.js';
import { analyzeLinkJob, analyzeLinkSpec } from './modules/links/analyze-link.job.js';
import { AnalysisService } from './modules/analysis/analysis.service.js';
import { CategoryModel } from './modules/analysis/category-model.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { captchaOff } from './modules/auth/captcha.js';
import { UserRepository } from './modules/auth/user.repository.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { BillingService } from './modules/billing/billing.service.js';
import { buildPlans } from './modules/billing/plans.js';
import { SimulatedPaymentProvider } from './modules/billing/simulated-provider.js';
import { simulatedPaymentPages } from './modules/billing/simulated-pages.routes.js';
import { SubscriptionRepository } from './modules/billing/subscription.repository.js';
import { EmbeddingRepository } from './modules/embeddings/embedding.repository.js';
import { reembedLinksJob, reembedLinksSpec } from './modules/embeddings/reembed-links.job.js';
import { ReembedRepository } from './modules/embeddings/reembed.repository.js';
import { ReembedService } from './modules/embeddings/reembed.service.js';
import { LinkAnalysisRepository } from './modules/links/link-analysis.repository.js';
import { linkAnalysisRoutes } from './modules/links/link-analysis.routes.js';
import { LinkAnalysisService } from './modules/links/link-analysis.service.js';
import { linkRoutes } from './modules/links/link.routes.js';
import { LibraryRepository } from './modules/links/library.repository.js';
import { libraryRoutes } from './modules/links/library.routes.js';
import { LibraryService } from './modules/links/library.service.js';
import { LinkRepository } from './modules/links/link.repository.js';
import { LinkService } from './modules/links/link.service.js';
import { buildModels } from './modules/ml/ml.module.js';
import type { Embedder } from './modules/ml/embedder.js';
import { WorkerExtractor } from './modules/pages/extractor.js';
import { PageFetcher } from './modules/pages/fetcher.js';
import { SearchRepository } from './modules/search/search.repository.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { SearchService } from './modules/search/search.service.js';
import { VectorCache } from './modules/search/vector-index.js';
import { VaultRepository } from './modules/vault/vault.repository.js';
import { vaultRoutes } from './modules/vault/vault.routes.js';
import { VaultService } from './modules/vault/vault.service.js';
import { JobQueue } from './platform/jobs/job-queue.js';
import { JOBS_CHANNEL, JobRepository } from './platform/jobs/job.repository.js';
import { JobRunner } from './platform/jobs/job-runner.js';
import type { Metrics } from './platform/metrics.js';
import { runInRequest } from './platform/request-context.js';

export interface AppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /**
   * The embedding model of the link vectors and of search queries; by default the remote model the
   * configuration names (OPENAI_EMBEDDING_MODEL, GEMINI_EMBEDDING_MODEL), else the offline model.
   */
  embedder?: Embedder;
}

/** How long shutdown waits for running handlers before closing the database anyway. */
const SHUTDOWN_DRAIN_MS = 8_000;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Query parameters whose values must never reach a log line (the extension hand-off carries a token). */
const SECRET_QUERY = /([?&](?:token|session_id|user)=)[^&]*/gi;

/** Logger settings: request ids, no secrets (headers are not logged; secret query values are masked). */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: req.url.replace(SECRET_QUERY, '$1[redacted]').replace(/\/(cs|ps)_[A-Za-z0-9_-]+/, '/$1_[redacted]'),
        remoteAddress: req.ip,
      }),
    },
  };
}

/** Every job every process may enqueue (an `api` process enqueues without running any). */
const JOB_SPECS = [analyzeLinkSpec, reembedLinksSpec];

/**
 * Builds the server for its role (ARCHITECTURE §12): `all` serves the API and the web app and runs
 * the jobs; `api` serves and enqueues; `worker` runs the jobs and answers only /api/health.
 */
export async function buildApp({
  config,
  database,
  clock = systemClock,
  logger,
  embedder: chosen,
}: AppOptions): Promise<FastifyInstance> {
  const serveApi = config.ROLE !== 'worker';
  const runJobs = config.ROLE !== 'api' && config.JOBS_ENABLED;
  const app = Fastify({
    logger: logger ?? loggerOptions(config.LOG_LEVEL),
    bodyLimit: 1024 * 1024,
    trustProxy: config.TRUST_PROXY,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    ...httpServerOptions(config),
  });
  // The API speaks JSON only; a text/plain body is a client mistake (415), not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    // The rest of the request runs in its context: jobs it enqueues record its id.
    runInRequest({ requestId: request.id }, done);
  });
  installErrorHandler(app);
  // Optional parts load only when configured (an api process's idle memory: bench/RESULTS.md).
  const metrics: Metrics | undefined = config.METRICS
    ? new (await import('./platform/metrics.js')).Metrics(config.ROLE)
    : undefined;
  metrics?.install(app, config.METRICS_TOKEN);
  // Shutdown closes the database only after the last request's handler is done with it.
  const inFlight = new InFlight();
  inFlight.install(app);
  installConnectionLimits(app, { max: config.MAX_CONNECTIONS_PER_IP, trustProxy: config.TRUST_PROXY });
  app.addHook('preClose', async () => {
    if (!(await inFlight.drain(SHUTDOWN_DRAIN_MS))) {
      app.log.warn({ inFlight: inFlight.size }, 'closing with requests still running');
    }
    // Every request has been answered: what is still connected is idle keep-alive sockets.
    app.server.closeAllConnections();
  });

  const { db } = database;
  const models = await buildModels(config, chosen, metrics && ((...timing) => metrics.inferred(...timing)));
  const jobs = new JobRepository(db, database.engine);
  const runner = runJobs
    ? new JobRunner(
        jobs,
        clock,
        app.log,
        { concurrency: config.JOB_CONCURRENCY, lockTimeoutMs: config.JOB_LOCK_TIMEOUT_SECONDS * 1000 },
        metrics,
      )
    : undefined;
  // Enqueues in this process wake its own worker at once; other processes' workers find them by polling.
  const queue = new JobQueue(jobs, clock, JOB_SPECS, () => runner?.nudge());

  const users = new UserRepository(db);
  const links = new LinkRepository(db, database.engine);
  const subscriptions = new SubscriptionRepository(db);
  const embeddings = new EmbeddingRepository(db, database.engine);
  const vectors = new VectorCache(config.SEARCH_VECTOR_CACHE_MB * 1024 * 1024);
  metrics?.watch({ queueDepth: () => jobs.depth(), vectorCacheBytes: () => vectors.bytes });
  const billing = new BillingService({
    subscriptions,
    countLinks: (userId) => links.countAll(userId),
    provider: config.BILLING === 'simulated' ? new SimulatedPaymentProvider(config.appUrl) : null,
    mode: config.BILLING,
    freeLinkLimit: config.FREE_LINK_LIMIT,
    plans: buildPlans({
      monthly: config.PRICE_MONTHLY,
      yearly: config.PRICE_YEARLY,
      currency: config.PRICE_CURRENCY,
      freeLinkLimit: config.FREE_LINK_LIMIT,
    }),
    clock,
  });
  const fetcher = new PageFetcher({ allowPrivate: config.FETCH_ALLOW_PRIVATE });
  const extractor = new WorkerExtractor();
  const reembed = new ReembedService({
    repo: new ReembedRepository(db),
    embeddings,
    queue,
    embedder: models.embedder,
    clock,
    log: app.log,
  });
  const linkAnalysis = new LinkAnalysisService({
    links,
    analyses: new LinkAnalysisRepository(db),
    embeddings,
    analysis: new AnalysisService({
      fetcher,
      extractor,
      embedder: models.embedder,
      categories: new CategoryModel(models.categoryEmbedder),
      llm: models.llm,
      llmPolicy: models.llmPolicy,
      log: app.log,
    }),
    subscriptions,
    queue,
    fetchIcon: (url) => fetcher.fetchIcon(url),
    vectorMissing: () => reembed.queue(),
    billingMode: config.BILLING,
    clock,
    log: app.log,
  });

  if (serveApi) await serveTheApi();
  else {
    healthRoute(app, db, config);
    // A worker answers nothing but its health.
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found', code: 'NOT_FOUND' }));
  }

  // The start-up check reads every link at worst (only when no finished run for this model is
  // recorded): it runs after start-up, not before it.
  let checking: Promise<unknown> = Promise.resolve();
  let stopListening: (() => Promise<void>) | undefined;
  if (runner) {
    runner.register(analyzeLinkJob(linkAnalysis));
    runner.register(reembedLinksJob(reembed));
    app.addHook('onReady', async () => {
      // Other processes' enqueues wake this worker at once (PostgreSQL); polling stays the fallback.
      stopListening = await database
        .listen?.(JOBS_CHANNEL, () => runner.nudge())
        .catch((error: unknown) => {
          app.log.warn({ err: error }, 'cannot listen for new jobs; this worker finds them by polling');
          return undefined;
        });
      runner.start();
      checking = reembed.queueIfNeeded().catch((error: unknown) => {
        app.log.error({ err: error }, 'could not check for links to re-embed');
      });
    });
  }
  app.addHook('onClose', async () => {
    await checking;
    await stopListening?.();
    await runner?.stop();
    await models.close();
    await extractor.close();
    await fetcher.close();
  });
  return app;

  async function serveTheApi(): Promise<void> {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      // The app is often served over plain http on localhost; HSTS belongs to the TLS proxy.
      hsts: false,
    });
    // Only the browser extensions call the API cross-origin.
    await app.register(cors, {
      origin: (origin, cb) =>
        cb(null, origin === undefined ? false : /^(chrome|moz)-extension:\/\/[a-z0-9-]+$/i.test(origin)),
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
      maxAge: 600,
    });
    await registerCompression(app);
    // Several instances share limits through Redis; one instance keeps them in memory.
    const redis = config.REDIS_URL
      ? new (await import('ioredis')).Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 2000 })
      : undefined;
    if (redis) app.addHook('onClose', async () => void (await redis.quit()));
    await app.register(rateLimit, {
      global: false,
      ...(redis && { redis }),
      errorResponseBuilder: (_req, context) => {
        const error = new AppError(
          'RATE_LIMITED',
          `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
        );
        return Object.assign(error, { statusCode: 429 });
      },
    });
    await app.register(swagger, {
      openapi: {
        info: { title: 'Linkwise API', version: config.version, description: 'Save links, find them again.' },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      },
      transform: jsonSchemaTransform,
    });

    healthRoute(app, db, config);
    const captcha = captchaOff;
    const auth = new AuthService({ users, billing, captcha, clock });
    const linkService = new LinkService({ links, billing, clock, queue });
    const searchService = new SearchService({
      search: new SearchRepository(db, database.engine),
      links,
      billing,
      embedder: models.embedder,
      vectors,
      warn: (context, message) => app.log.warn(context, message),
    });
    const route = makeRouter(app, async (request) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      const actor = token ? await auth.authenticate(token) : undefined;
      if (!actor) throw new AppError('UNAUTHENTICATED', Messages.authenticationRequired);
      request.actor = actor;
    });
    // Public and secret-free: only what the web app prints on its pages.
    route(routes.appConfig, () =>
      Promise.resolve({
        operatorName: config.OPERATOR_NAME,
        supportEmail: config.SUPPORT_EMAIL,
        billing: config.BILLING,
        freeLinkLimit: config.FREE_LINK_LIMIT,
      }),
    );
    authRoutes(route, auth, captcha, config.RATE_LIMIT_AUTH_PER_MINUTE);
    const library = new LibraryService({ links, library: new LibraryRepository(db), analyses: linkAnalysis, clock });
    linkRoutes(route, linkService);
    linkAnalysisRoutes(route, linkAnalysis);
    libraryRoutes(route, library);
    vaultRoutes(route, new VaultService({ vaults: new VaultRepository(db), links, clock }));
    searchRoutes(route, searchService, (actor) => library.countSearch(actor));
    billingRoutes(route, billing);
    if (config.BILLING === 'simulated') await app.register(simulatedPaymentPages(billing));
    app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
    await serveWebApp(app);
  }
}

/** Health is public and cheap, in every role: one trivial query proves the database answers. */
function healthRoute(app: FastifyInstance, db: Database['db'], config: Config): void {
  const route = makeRouter(app, () => Promise.reject(new AppError('UNAUTHENTICATED', Messages.authenticationRequired)));
  route(routes.health, async () => {
    await db.selectFrom('users').select('id').limit(1).execute();
    return { status: 'ok' as const, db: 'ok' as const, version: config.version };
  });
}
