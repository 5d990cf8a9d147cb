import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { AccountMessages, Messages, routes } from '@linkwise/contract';
import { ConfigError, type Config } from './config.js';
import type { Database } from './db/database.js';
import { AppError } from './errors.js';
import { registerCompression } from './http/compression.js';
import { installConnectionLimits } from './http/connection-limits.js';
import { installErrorHandler } from './http/error-handler.js';
import { InFlight } from './http/in-flight.js';
import { connectRedis, SharedMemoryStore } from './http/rate-limit-store.js';
import { makeRouter } from './http/route-adapter.js';
import { httpServerOptions } from './http/server-options.js';
import { serveWebApp } from './http/web-app.js';
import { systemClock, type Clock } from './lib/clock.js';
import { analyzeLinkJob, analyzeLinkSpec } from './modules/links/analyze-link.job.js';
import { AnalysisService } from './modules/analysis/analysis.service.js';
import { CategoryModel } from './modules/analysis/category-model.js';
import { accountRoutes } from './modules/auth/account.routes.js';
import { AccountService, type AccountDeletionStep } from './modules/auth/account.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { captchaFor } from './modules/auth/captcha.js';
import { smtpMailer } from './modules/auth/mailer.js';
import { SecondFactor } from './modules/auth/second-factor.js';
import { SecretBox } from './modules/auth/secret-box.js';
import { UserRepository } from './modules/auth/user.repository.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { BillingService } from './modules/billing/billing.service.js';
import { buildPlans } from './modules/billing/plans.js';
import { SimulatedPaymentProvider } from './modules/billing/simulated-provider.js';
import { simulatedPaymentPages } from './modules/billing/simulated-pages.routes.js';
import { stripeEventJob, stripeEventSpec } from './modules/billing/stripe-event.job.js';
import { stripeWebhookRoute } from './modules/billing/stripe-webhook.routes.js';
import { SubscriptionRepository } from './modules/billing/subscription.repository.js';
import { extensionOrigins } from './modules/extension/extension-origins.js';
import { extensionRoutes } from './modules/extension/extension.routes.js';
import { EmbeddingRepository } from './modules/embeddings/embedding.repository.js';
import { reembedLinksJob, reembedLinksSpec } from './modules/embeddings/reembed-links.job.js';
import { ReembedRepository } from './modules/embeddings/reembed.repository.js';
import { ReembedService, type ReembedTarget } from './modules/embeddings/reembed.service.js';
import { SearchModels } from './modules/embeddings/search-models.js';
import { LinkAnalysisRepository } from './modules/links/link-analysis.repository.js';
import { linkAnalysisRoutes } from './modules/links/link-analysis.routes.js';
import { LinkAnalysisService } from './modules/links/link-analysis.service.js';
import { linkRoutes } from './modules/links/link.routes.js';
import { LibraryRepository } from './modules/links/library.repository.js';
import { libraryRoutes } from './modules/links/library.routes.js';
import { LibraryService } from './modules/links/library.service.js';
import { LinkRepository } from './modules/links/link.repository.js';
import { LinkService } from './modules/links/link.service.js';
import { EmbedRelay, EmbedRelayWorker } from './modules/ml/embed-relay.js';
import { buildModels } from './modules/ml/ml.module.js';
import { modelRank, NOT_OFFLINE } from './modules/ml/model-catalog.js';
import type { Embedder } from './modules/ml/embedder.js';
import { WorkerExtractor } from './modules/pages/extractor.js';
import { PageFetcher } from './modules/pages/fetcher.js';
import { SearchRepository } from './modules/search/search.repository.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { SearchService } from './modules/search/search.service.js';
import { VectorCache } from './modules/search/vector-index.js';
import { NearestLinks } from './modules/search/nearest-links.js';
import { VaultRepository } from './modules/vault/vault.repository.js';
import { vaultRoutes } from './modules/vault/vault.routes.js';
import { VaultService } from './modules/vault/vault.service.js';
import { backupLinksJob, backupLinksSpec, scheduleBackupSweeps } from './modules/imports/backup-links.job.js';
import { BackupService } from './modules/imports/backup.service.js';
import { ExportService } from './modules/imports/export.service.js';
import { importLinksJob, importLinksSpec } from './modules/imports/import-links.job.js';
import { ImportRepository } from './modules/imports/import.repository.js';
import { importRoutes } from './modules/imports/import.routes.js';
import { ImportService } from './modules/imports/import.service.js';
import { LinkImportService } from './modules/links/link-import.service.js';
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
  /**
   * Clean-up outside the database after an account is deleted (its rows are already gone): files
   * the user owned, the payment provider's customer. Each runs once; a failure is logged.
   */
  onAccountDeleted?: AccountDeletionStep[];
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
const JOB_SPECS = [analyzeLinkSpec, reembedLinksSpec, importLinksSpec, backupLinksSpec, stripeEventSpec];

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
  onAccountDeleted = [],
}: AppOptions): Promise<FastifyInstance> {
  const serveApi = config.ROLE !== 'worker';
  const runJobs = config.ROLE !== 'api' && config.JOBS_ENABLED;
  const proxies = config.TRUST_PROXY;
  const app = Fastify({
    logger: logger ?? loggerOptions(config.LOG_LEVEL),
    bodyLimit: 1024 * 1024,
    // A count of proxies: the socket's peer is hop 0, X-Forwarded-For read from its end the next ones.
    trustProxy: typeof proxies === 'number' ? (_address: string, hop: number) => hop < proxies : proxies,
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
  installConnectionLimits(app, { max: config.MAX_CONNECTIONS_PER_IP, trustProxy: config.TRUST_PROXY !== false });
  app.addHook('preClose', async () => {
    if (!(await inFlight.drain(SHUTDOWN_DRAIN_MS))) {
      app.log.warn({ inFlight: inFlight.size }, 'closing with requests still running');
    }
    // Every request has been answered: what is still connected is idle keep-alive sockets.
    app.server.closeAllConnections();
  });

  const { db } = database;
  // The deployment's search model, shared by every process (decision 0018).
  const searchModels = new SearchModels(db, () => clock.now());
  // An `api` process loads no model: workers embed its queries, tags and dialog pages (decision 0018).
  const relay =
    config.ROLE === 'api'
      ? new EmbedRelay(database, {
          now: () => clock.now(),
          queryTimeoutMs: config.QUERY_EMBED_TIMEOUT_MS,
          documentTimeoutMs: config.AI_TIMEOUT_SECONDS * 1000,
        })
      : undefined;
  const models = await buildModels(config, chosen, {
    observe: metrics && ((...timing) => metrics.inferred(...timing)),
    log: app.log,
    download: runJobs,
    relay: relay && { relay, searchModel: () => searchModels.last?.target ?? null },
  });
  const ownModel = () => ({ model: models.embedder.modelId, dims: models.embedder.dimensions });
  /** This process has its model ready: it becomes the deployment's target if it ranks above it. */
  const advance = async () => {
    const rank = modelRank(models.embedder.modelId);
    if (models.rollout && rank !== NOT_OFFLINE) await searchModels.advance({ ...ownModel(), rank });
  };
  const reembedTarget: ReembedTarget | undefined = models.rollout
    ? {
        target: async (fresh) => (await searchModels.read(fresh)).target ?? ownModel(),
        finished: (model) => searchModels.finished(model),
      }
    : undefined;
  /** Search reads the target's vectors and, until a run into it finishes, the previous model's. */
  const queryModels = models.rollout
    ? async () => {
        const { target, active } = await searchModels.read();
        const refs = [target, active].filter((r, i, all) => r && all.findIndex((o) => o?.model === r.model) === i);
        const found = refs.flatMap((r) => models.embedderFor(r!) ?? []);
        return found.length > 0 ? found : [models.embedder];
      }
    : undefined;
  const jobs = new JobRepository(db, database.engine);
  const runner = runJobs
    ? new JobRunner(
        jobs,
        clock,
        app.log,
        {
          concurrency: config.JOB_CONCURRENCY,
          lockTimeoutMs: config.JOB_LOCK_TIMEOUT_SECONDS * 1000,
          soleWorker: database.engine === 'sqlite',
        },
        metrics,
      )
    : undefined;
  // Enqueues in this process wake its own worker at once; other processes' workers find them by polling.
  const queue = new JobQueue(jobs, clock, JOB_SPECS, () => runner?.nudge());

  const users = new UserRepository(db, database.engine);
  const links = new LinkRepository(db, database.engine);
  const subscriptions = new SubscriptionRepository(db);
  const embeddings = new EmbeddingRepository(db, database.engine);
  const vectors = new VectorCache(config.SEARCH_VECTOR_CACHE_MB * 1024 * 1024);
  metrics?.watch({
    queueDepth: () => jobs.depth(),
    vectorCacheBytes: () => vectors.bytes,
    embeddingModel: () => models.embedder.modelId,
  });
  // The Stripe SDK loads only where it is used (an api process's idle memory: bench/RESULTS.md).
  const stripe =
    config.BILLING === 'stripe'
      ? new (await import('./modules/billing/stripe-provider.js')).StripePaymentProvider(
          {
            secretKey: config.STRIPE_SECRET_KEY ?? '',
            webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? '',
            prices: { monthly: config.STRIPE_PRICE_MONTHLY ?? '', yearly: config.STRIPE_PRICE_YEARLY ?? '' },
            appUrl: config.appUrl,
            trialDays: config.TRIAL_DAYS,
            apiBase: config.STRIPE_API_BASE,
            log: app.log,
          },
          subscriptions,
        )
      : undefined;
  // With Stripe, every screen shows the prices Stripe charges (read once here); else the configured ones.
  const stripePrices = await stripe?.loadPrices().catch((error: unknown) => {
    throw new ConfigError(`Invalid configuration: ${error instanceof Error ? error.message : String(error)}`);
  });
  const billing = new BillingService({
    subscriptions,
    countLinks: (userId) => links.countAll(userId),
    provider: stripe ?? (config.BILLING === 'simulated' ? new SimulatedPaymentProvider(config.appUrl) : null),
    ...(stripe && { remote: stripe }),
    mode: config.BILLING,
    freeLinkLimit: config.FREE_LINK_LIMIT,
    plans: buildPlans({
      monthly: stripePrices?.monthly.amount ?? config.PRICE_MONTHLY,
      yearly: stripePrices?.yearly.amount ?? config.PRICE_YEARLY,
      currency: stripePrices?.monthly.currency ?? config.PRICE_CURRENCY,
      freeLinkLimit: config.FREE_LINK_LIMIT,
    }),
    clock,
    queue,
    log: app.log,
  });
  const fetcher = new PageFetcher({ allowPrivate: config.FETCH_ALLOW_PRIVATE });
  const extractor = new WorkerExtractor();
  const reembed = new ReembedService({
    repo: new ReembedRepository(db),
    embeddings,
    queue,
    embedder: models.embedder,
    target: reembedTarget,
    clock,
    log: app.log,
  });
  // The offline model arrived after start-up (downloaded, or copied in): every link gets its vector.
  models.offline?.onSwitch(() => {
    if (runJobs)
      void advance()
        .then(() => reembed.queue())
        .catch((error: unknown) => app.log.error({ err: error }, 'could not queue re-embedding'));
  });
  const nearestLinks = new NearestLinks(new SearchRepository(db, database.engine), vectors);
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
    // The user's history for categories: the search's per-user vector matrix, shared with search.
    nearestLinks: (userId, model, vector, k, except) => nearestLinks.nearest(userId, model, vector, k, except),
    vectorMissing: () => reembed.queue(),
    vectorSaved: (model) => reembed.queueIfBehind(model),
    billingMode: config.BILLING,
    clock,
    log: app.log,
  });

  const vaultRepository = new VaultRepository(db);
  const exportService = new ExportService({ db, links, vaults: vaultRepository, clock });
  const importService = new ImportService({
    imports: new ImportRepository(db),
    links,
    linkImport: new LinkImportService({ links, queue, now: () => clock.now() }),
    vaults: vaultRepository,
    subscriptions,
    billing,
    queue,
    clock,
    dataDir: config.dataDir,
    log: app.log,
  });
  /** Account deletion also removes the user's backup files (`deleteFor`). */
  const backupService = new BackupService({
    db,
    exports: exportService,
    dataDir: config.dataDir,
    billingMode: config.BILLING,
    everyDays: config.BACKUP_EVERY_DAYS,
    keep: config.BACKUP_KEEP,
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
  let warming: Promise<unknown> = Promise.resolve();
  let stopListening: (() => Promise<void>) | undefined;
  let stopBackupSweeps: (() => void) | undefined;
  let stopWatching: (() => void) | undefined;
  // Processes that run the models on PostgreSQL embed for `api` processes too.
  const relayWorker =
    runner && database.listen
      ? new EmbedRelayWorker(database, {
          models: () => models.local(),
          version: config.version,
          now: () => clock.now(),
          log: app.log,
        })
      : undefined;
  if (relay) {
    app.addHook('onReady', async () => {
      await searchModels.read().catch((error: unknown) => app.log.warn({ err: error }, 'cannot read the search model'));
      stopWatching = searchModels.watch(5000);
      await relay.start();
    });
  }
  if (runner) {
    runner.register(analyzeLinkJob(linkAnalysis));
    runner.register(reembedLinksJob(reembed));
    runner.register(importLinksJob(importService));
    runner.register(backupLinksJob(backupService));
    runner.register(stripeEventJob(billing));
    app.addHook('onReady', async () => {
      // Other processes' enqueues wake this worker at once (PostgreSQL); polling stays the fallback.
      stopListening = await database
        .listen?.(JOBS_CHANNEL, () => runner.nudge())
        .catch((error: unknown) => {
          app.log.warn({ err: error }, 'cannot listen for new jobs; this worker finds them by polling');
          return undefined;
        });
      runner.start();
      stopBackupSweeps = scheduleBackupSweeps(
        queue,
        () => clock.now(),
        (error) => app.log.error({ err: error }, 'could not queue the backup sweep'),
      );
      checking = advance()
        .then(() => reembed.queueIfNeeded())
        .catch((error: unknown) => {
          app.log.error({ err: error }, 'could not check for links to re-embed');
        });
      // Registered once its model answers, so the first search sent here does not wait for the load.
      if (relayWorker) {
        const first = [...models.local().values()][0];
        warming = (first ? first.embed(['ready'], 'query') : Promise.resolve())
          .catch(() => undefined)
          .then(() => relayWorker.start())
          .catch((error: unknown) => app.log.warn({ err: error }, 'cannot embed for api processes'));
      }
    });
  }
  app.addHook('onClose', async () => {
    stopWatching?.();
    await warming;
    await relayWorker?.stop();
    await checking;
    await stopListening?.();
    stopBackupSweeps?.();
    await runner?.stop();
    await models.close();
    await extractor.close();
    await fetcher.close();
  });
  return app;

  async function serveTheApi(): Promise<void> {
    // The chosen captcha provider's script and frame, and nothing of the others (ALTCHA needs none).
    const captchaOrigins =
      config.CAPTCHA === 'recaptcha'
        ? ['https://www.google.com', 'https://www.gstatic.com']
        : config.CAPTCHA === 'turnstile'
          ? ['https://challenges.cloudflare.com']
          : [];
    // Stripe.js (the checkout redirect helper) is allowed only when it is configured to be used.
    const stripeJs = config.BILLING === 'stripe' && config.STRIPE_PUBLISHABLE_KEY ? ['https://js.stripe.com'] : [];
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...captchaOrigins, ...stripeJs],
          frameSrc: ["'self'", ...captchaOrigins, ...stripeJs],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'", ...captchaOrigins, ...(stripeJs.length ? ['https://api.stripe.com'] : [])],
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
    // Only the browser extensions call the API cross-origin, and only the known ones.
    const allowedOrigins = extensionOrigins(config.EXTENSION_IDS);
    await app.register(cors, {
      origin: (origin, cb) => cb(null, origin !== undefined && allowedOrigins.has(origin.toLowerCase())),
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
      maxAge: 600,
    });
    await registerCompression(app);
    // Several instances share limits through Redis; one instance keeps them in memory.
    const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, app.log) : undefined;
    if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, skipOnError: true } : { store: SharedMemoryStore }),
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
        components: {
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              description:
                'A session token from sign-in, or a personal API token (lw_…) created in Profile: read tokens may only GET; no API token reaches /api/account.',
            },
          },
        },
      },
      transform: jsonSchemaTransform,
    });

    healthRoute(app, db, config);
    const box = SecretBox.fromConfig(config);
    const captcha = captchaFor(config, box.secret);
    const secondFactor = new SecondFactor({
      users,
      box,
      clock,
      issuer: config.OPERATOR_NAME,
    });
    if (serveApi) {
      void secondFactor.keyOpensStoredSecrets().then(
        (opens) =>
          opens ||
          app.log.warn(
            'Two-factor secrets in this database were sealed with another server key: no two-factor code is accepted. Put back the DATA_DIR/secret.key (or SECRET_KEY) that belongs with this database, or turn two-factor off for its accounts with npm run reset-password -- <email> --disable-2fa',
          ),
        (error: unknown) =>
          app.log.warn({ err: error }, 'could not check the two-factor secrets against the server key'),
      );
    }
    const auth = new AuthService({
      users,
      billing,
      captcha,
      secondFactor,
      clock,
      maxFailuresPerAccount: config.SIGN_IN_FAILURES_PER_ACCOUNT,
    });
    const mailer = config.SMTP_URL
      ? smtpMailer(
          config.SMTP_URL,
          config.MAIL_FROM ?? `${config.OPERATOR_NAME} <no-reply@${new URL(config.appUrl).hostname}>`,
        )
      : undefined;
    if (mailer) {
      app.addHook('onClose', () => mailer.close());
      // Password reset is offered whenever SMTP_URL is set: a server that does not answer is said at once,
      // not first when someone's reset mail is lost (not awaited: a slow server delays nothing).
      if (serveApi) {
        mailer
          .verify()
          .catch((error: unknown) =>
            app.log.warn(
              { reason: error instanceof Error ? error.message : String(error) },
              'SMTP_URL cannot be used: password-reset mails are not sent until it can',
            ),
          );
      }
    }
    const account = new AccountService({
      users,
      auth,
      secondFactor,
      captcha,
      mailer,
      clock,
      appUrl: config.appUrl,
      operatorName: config.OPERATOR_NAME,
      beforeAccountDeleted: [(userId) => billing.forgetCustomer(userId)],
      onAccountDeleted: [...onAccountDeleted, (account) => backupService.deleteFor(account.userId)],
      log: app.log,
    });
    const linkService = new LinkService({
      links,
      billing,
      clock,
      queue,
      hasVault: async (userId) => (await vaultRepository.find(userId)) !== undefined,
    });
    const searchService = new SearchService({
      search: new SearchRepository(db, database.engine),
      links,
      billing,
      embedder: models.embedder,
      ...(queryModels && { queryModels }),
      vectors,
      warn: (context, message) => app.log.warn(context, message),
    });
    const route = makeRouter(app, async (request) => {
      const header = request.headers.authorization;
      // The scheme is case-insensitive (RFC 9110 §11.1): "bearer" works as "Bearer" does.
      const token = /^bearer /i.test(header ?? '') ? header!.slice(7).trim() : undefined;
      const actor = token ? await auth.authenticate(token) : undefined;
      if (!actor) throw new AppError('UNAUTHENTICATED', Messages.authenticationRequired);
      if (actor.tokenKind === 'api') {
        const url = request.routeOptions.url ?? '';
        const reads = request.method === 'GET' || request.method === 'HEAD';
        // A script's token reaches the links, never the account that could mint more tokens, nor
        // what a leaked token could wreck beyond them: wiping the vault, billing.
        const accountWide = url === '/api/vault' || url.startsWith('/api/subscription/');
        if (url.startsWith('/api/account') || (accountWide && !reads)) {
          throw new AppError('TOKEN_SCOPE', AccountMessages.tokenCannotManageAccount);
        }
        // Signing itself out is not a change to the library: a read-only token may do it.
        if (actor.scope !== 'write' && !reads && url !== routes.logout.path) {
          throw new AppError('TOKEN_SCOPE', AccountMessages.readOnlyToken);
        }
      }
      request.actor = actor;
    });
    // Public and secret-free: only what the web app prints on its pages.
    route(routes.appConfig, () =>
      Promise.resolve({
        operatorName: config.OPERATOR_NAME,
        supportEmail: config.SUPPORT_EMAIL,
        billing: config.BILLING,
        freeLinkLimit: config.FREE_LINK_LIMIT,
        trialDays: config.BILLING === 'stripe' ? config.TRIAL_DAYS : 0,
        stripePublishableKey: (config.BILLING === 'stripe' && config.STRIPE_PUBLISHABLE_KEY) || null,
      }),
    );
    authRoutes(route, auth, captcha, config.RATE_LIMIT_AUTH_PER_MINUTE);
    accountRoutes(route, account, config.RATE_LIMIT_AUTH_PER_MINUTE);
    const library = new LibraryService({
      links,
      access: linkService,
      library: new LibraryRepository(db),
      analyses: linkAnalysis,
      clock,
      // The offline model (never a paid remote one): tags are embedded on a visit to the tag manager.
      tagEmbedder: models.categoryEmbedder,
    });
    linkRoutes(route, linkService);
    linkAnalysisRoutes(route, linkAnalysis, linkService);
    libraryRoutes(route, library);
    vaultRoutes(route, new VaultService({ vaults: new VaultRepository(db), links, clock }));
    searchRoutes(route, searchService, config.RATE_LIMIT_SEARCH_PER_MINUTE, (actor) => library.countSearch(actor));
    billingRoutes(route, billing);
    await importRoutes(app, route, {
      imports: importService,
      exports: exportService,
      backups: backupService,
      maxBytes: config.IMPORT_MAX_BYTES,
    });
    if (config.BILLING === 'simulated') await app.register(simulatedPaymentPages(billing, config.appUrl));
    if (config.BILLING === 'stripe') await app.register(stripeWebhookRoute(billing));
    extensionRoutes(app, route, config);
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
