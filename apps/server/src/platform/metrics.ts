import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobObserver } from './jobs/job-runner.js';

/** What the metrics read when scraped, from the modules that own it. */
export interface MetricSources {
  /** Queued and running jobs by name. */
  queueDepth(): Promise<{ type: string; status: string; n: number }[]>;
  /** Bytes of link vectors held by this process's search cache (0 where the process serves no search). */
  vectorCacheBytes(): number;
  /** The model that embeds pages and queries here now (USE-lite's while the offline model is missing). */
  embeddingModel(): string;
}

/**
 * Prometheus metrics of one process (`METRICS=true`, `GET /metrics`): HTTP requests by route and
 * status, job queue depth, job durations by name and outcome, model inference time, the model in
 * use, the vector cache, and the runtime's own (event-loop delay, memory, CPU). A registry per
 * process, not the library's global one, so several servers in one test process never share counts.
 */
export class Metrics implements JobObserver {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly jobs: Histogram<'name' | 'outcome'>;
  private readonly inference: Histogram<'model' | 'purpose'>;

  constructor(role: string) {
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.jobs = new Histogram({
      name: 'job_duration_seconds',
      help: 'Time one job run took, by job name and outcome (done, continued, retry, failed, canceled)',
      labelNames: ['name', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    this.inference = new Histogram({
      name: 'model_inference_seconds',
      help: 'Time one embedding call took, by model and purpose (document or query)',
      labelNames: ['model', 'purpose'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
  }

  /** Gauges read from their owners at scrape time (nothing is kept twice). */
  watch(sources: MetricSources): void {
    new Gauge({
      name: 'job_queue_depth',
      help: 'Jobs waiting (queued) or running, by job name',
      labelNames: ['name', 'status'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { type, status, n } of await sources.queueDepth()) this.set({ name: type, status }, n);
      },
    });
    new Gauge({
      name: 'embedding_model_info',
      help: 'The embedding model this process answers with (value 1); use-lite-512 while the offline model is missing or downloading',
      labelNames: ['model'],
      registers: [this.registry],
      collect() {
        this.reset();
        this.set({ model: sources.embeddingModel() }, 1);
      },
    });
    new Gauge({
      name: 'search_vector_cache_bytes',
      help: 'Bytes of link vectors this process keeps for semantic search',
      registers: [this.registry],
      collect() {
        this.set(sources.vectorCacheBytes());
      },
    });
  }

  finished(name: string, outcome: string, seconds: number): void {
    this.jobs.observe({ name, outcome }, seconds);
  }

  inferred(model: string, purpose: string, seconds: number): void {
    this.inference.observe({ model, purpose }, seconds);
  }

  /** Counts every answered request under its route template (`/api/links/:id`), never its raw URL. */
  install(app: FastifyInstance, token: string | undefined): void {
    app.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      };
      this.requests.inc(labels);
      this.latency.observe(labels, reply.elapsedTime / 1000);
      done();
    });
    // Compared as digests in constant time: how long a refusal takes says nothing of the token.
    const digest = (text: string) => createHash('sha256').update(text).digest();
    const expected = token ? digest(`Bearer ${token}`) : undefined;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (expected && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
        return reply.code(401).send({ error: 'Authentication required', code: 'UNAUTHENTICATED' });
      }
      return reply.type(this.registry.contentType).send(await this.registry.metrics());
    });
  }
}
