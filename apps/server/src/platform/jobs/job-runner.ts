import { hostname } from 'node:os';
import { JobPayloadSchemas, type JobName, type JobPayload, type JobProgress } from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { DAY_MS } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { retryDelay, type AnyJobDefinition, type JobContext } from './job.js';
import type { JobRepository, JobRow } from './job.repository.js';

export interface JobRunnerOptions {
  concurrency: number;
  /** A running job whose lock is older than this is taken for crashed and runs again. */
  lockTimeoutMs: number;
  pollMs?: number;
  /**
   * The only worker its database has (SQLite: one process by design): a job still running when it
   * starts was left by this process's previous life and runs again at once, without the lock timeout.
   */
  soleWorker?: boolean;
  /** Finished jobs are deleted after this long (failed ones after four times as long). */
  keepFinishedMs?: number;
}

/** What the runner reports about each run (metrics). */
export interface JobObserver {
  finished(name: string, outcome: 'done' | 'continued' | 'retry' | 'failed' | 'canceled', seconds: number): void;
}

/** Someone canceled the job, or the worker is shutting down: not a failure. */
class Stopped extends Error {
  constructor(readonly by: 'cancel' | 'shutdown') {
    super(by === 'cancel' ? 'canceled' : 'the worker is shutting down');
  }
}

/** A job whose stored payload its schema refuses: retrying cannot help, so it fails at once. */
class UnreadablePayload extends Error {}

/**
 * The worker of a process: polls the queue, runs at most `concurrency` jobs at once, validates each
 * payload against the contract, retries by each job's own policy, refreshes locks while jobs run,
 * recovers jobs left by crashed workers, and prunes old finished jobs.
 */
export class JobRunner {
  readonly workerId = `${hostname()}:${process.pid}:${newId().slice(-8)}`;
  private readonly definitions = new Map<string, AnyJobDefinition>();
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private ticking: Promise<void> | undefined;
  private pollAgain = false;
  private lastRecovery = 0;
  private lastPrune = 0;

  constructor(
    private readonly jobs: JobRepository,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly options: JobRunnerOptions,
    private readonly observer?: JobObserver,
  ) {}

  register(definition: AnyJobDefinition): void {
    this.definitions.set(definition.name, definition);
  }

  get size(): number {
    return this.running.size;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Wakes the poller now (after an enqueue in this process). */
  nudge(): void {
    if (!this.stopped) this.schedule(0);
  }

  /**
   * Stops polling, tells running jobs to stop at their next safe point, and waits for them. A job
   * cut short this way is queued again (not failed): another worker, or this one after a restart,
   * continues it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A poll in progress may still claim jobs: let it finish, then wait for everything it started.
    await this.ticking;
    for (const { abort } of this.running.values()) abort.abort(new Stopped('shutdown'));
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      if (this.ticking) {
        this.pollAgain = true; // a nudge during a poll: poll again as soon as this one ends
        return;
      }
      this.ticking = this.tick().finally(() => {
        this.ticking = undefined;
        const again = this.pollAgain;
        this.pollAgain = false;
        if (!this.stopped) this.schedule(again ? 0 : (this.options.pollMs ?? 1000));
      });
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      const now = this.clock.now();
      const cancel = await this.jobs.heartbeat(this.workerId, [...this.running.keys()], now);
      for (const id of cancel) this.running.get(id)?.abort.abort(new Stopped('cancel'));
      if (now - this.lastRecovery >= this.options.lockTimeoutMs / 2 || this.lastRecovery === 0) {
        // Before this runner has claimed anything, on its first tick.
        const staleBefore =
          this.options.soleWorker && this.lastRecovery === 0 ? now + 1 : now - this.options.lockTimeoutMs;
        this.lastRecovery = now;
        const recovered = await this.jobs.recoverStale(staleBefore, now);
        if (recovered > 0) this.log.warn({ recovered }, 'requeued jobs left running by a stopped worker');
      }
      if (now - this.lastPrune >= DAY_MS / 24) {
        this.lastPrune = now;
        const keep = this.options.keepFinishedMs ?? 7 * DAY_MS;
        await this.jobs.prune(now - keep, now - 4 * keep);
      }
      const free = this.options.concurrency - this.running.size;
      if (free > 0 && !this.stopped) {
        // Only jobs this worker has handlers for: during a rolling upgrade an older worker leaves a new
        // kind of job to the workers that know it.
        for (const job of await this.jobs.claim(this.workerId, await this.claimable(), free, now)) {
          const abort = new AbortController();
          const done = this.execute(job, abort.signal).finally(() => {
            this.running.delete(job.id);
            this.nudge();
          });
          this.running.set(job.id, { done, abort });
        }
      }
    } catch (error) {
      this.log.error({ err: error }, 'job queue poll failed');
    }
  }

  /** The kinds of job this worker can run now (a definition may say it cannot, for a while). */
  private async claimable(): Promise<string[]> {
    const kinds: string[] = [];
    for (const [name, definition] of this.definitions) {
      if (!definition.available || (await definition.available().catch(() => false))) kinds.push(name);
    }
    return kinds;
  }

  private context(job: JobRow, signal: AbortSignal): JobContext {
    return {
      jobId: job.id,
      attempt: job.attempts,
      requestId: job.request_id,
      log: this.log.child({ jobId: job.id, job: job.type, ...(job.request_id && { reqId: job.request_id }) }),
      signal,
      progress: async (progress: JobProgress) => {
        await this.jobs.progress(this.workerId, job.id, JSON.stringify(progress), this.clock.now());
      },
    };
  }

  /** Checked when dequeued: a row written by another release or by hand never reaches a handler unchecked. */
  private payloadOf(job: JobRow, definition: AnyJobDefinition): JobPayload<JobName> {
    let stored: unknown;
    try {
      stored = JSON.parse(job.payload);
    } catch {
      throw new UnreadablePayload('the payload is not JSON');
    }
    const parsed = JobPayloadSchemas[definition.name].safeParse(stored);
    if (!parsed.success) throw new UnreadablePayload(`the payload does not match its schema: ${parsed.error.message}`);
    return parsed.data;
  }

  private async execute(job: JobRow, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    // Claimed by type, so a definition exists (see `tick`).
    const definition = this.definitions.get(job.type)!;
    const ctx = this.context(job, signal);
    const seconds = () => (performance.now() - started) / 1000;
    let payload: JobPayload<JobName> | undefined;
    try {
      payload = this.payloadOf(job, definition);
      const outcome = await definition.run(payload, ctx);
      const now = this.clock.now();
      if (outcome) {
        await this.jobs.finish(this.workerId, job.id, { continueWith: JSON.stringify(outcome.continueWith) }, now);
        this.observer?.finished(job.type, 'continued', seconds());
      } else {
        await this.jobs.finish(this.workerId, job.id, { status: 'done' }, now);
        this.observer?.finished(job.type, 'done', seconds());
      }
    } catch (error) {
      await this.failed(job, definition, payload, ctx, signal.aborted ? signal.reason : error, seconds);
    }
  }

  private async failed(
    job: JobRow,
    definition: AnyJobDefinition,
    payload: JobPayload<JobName> | undefined,
    ctx: JobContext,
    error: unknown,
    seconds: () => number,
  ): Promise<void> {
    const now = this.clock.now();
    try {
      if (error instanceof Stopped) {
        if (error.by === 'cancel') {
          await this.jobs.finish(this.workerId, job.id, { status: 'canceled' }, now);
          this.observer?.finished(job.type, 'canceled', seconds());
        } else {
          await this.jobs.release(this.workerId, job.id, now);
          this.observer?.finished(job.type, 'retry', seconds());
        }
        ctx.log.info({ reason: error.message }, 'job stopped');
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const policy = definition.retry;
      const retryable = !(error instanceof UnreadablePayload) && (policy.retryable?.(error) ?? true);
      const last = !retryable || job.attempts >= job.max_attempts;
      await this.jobs.fail(this.workerId, job.id, message, now, last ? null : now + retryDelay(policy, job.attempts));
      this.observer?.finished(job.type, last ? 'failed' : 'retry', seconds());
      ctx.log.warn({ attempt: job.attempts, final: last, error: message }, 'job failed');
      if (last && definition.onGiveUp && payload !== undefined) await definition.onGiveUp(payload, error, ctx);
    } catch (inner) {
      ctx.log.error({ err: inner }, 'could not record a job failure');
    }
  }
}
