import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { JobRepository, JobRow } from './job.repository.js';

/** What a run may ask for: to run again soon with a new payload (a long task done in steps). */
export interface JobContinuation {
  continueWith: unknown;
}

/** A job type: its handler and retry policy. Handlers must be idempotent (a job can run twice after a crash). */
export interface JobHandler {
  type: string;
  run(payload: unknown, job: JobRow): Promise<void | JobContinuation>;
  /** Called once when the last attempt failed. */
  onGiveUp?(payload: unknown, error: unknown): Promise<void>;
  /** False for errors retrying cannot fix (the handler then gives up at once). */
  retryable?(error: unknown): boolean;
}

export interface JobRunnerOptions {
  concurrency: number;
  /** A running job whose lock is older than this is taken for crashed and runs again. */
  lockTimeoutMs: number;
  pollMs?: number;
  /** Exponential backoff base: attempt n waits base × 4^(n−1) (base 5 s: 5 s, 20 s, 80 s, 320 s). */
  backoffBaseMs?: number;
}

/**
 * The in-process worker: polls the queue, runs at most `concurrency` jobs at once, retries with
 * exponential backoff, refreshes locks while jobs run and recovers jobs left by crashed instances.
 */
export class JobRunner {
  readonly workerId = `${hostname()}:${process.pid}:${newId().slice(-8)}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private ticking: Promise<void> | undefined;
  private pollAgain = false;
  private lastRecovery = 0;

  constructor(
    private readonly jobs: JobRepository,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly options: JobRunnerOptions,
  ) {}

  register(handler: JobHandler): void {
    this.handlers.set(handler.type, handler);
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

  /** Stops polling and waits for running jobs to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A poll in progress may still claim jobs: let it finish, then wait for everything it started.
    await this.ticking;
    await Promise.allSettled(this.running.values());
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
      await this.jobs.heartbeat(this.workerId, [...this.running.keys()], now);
      if (now - this.lastRecovery >= this.options.lockTimeoutMs / 2 || this.lastRecovery === 0) {
        this.lastRecovery = now;
        const recovered = await this.jobs.recoverStale(now - this.options.lockTimeoutMs, now);
        if (recovered > 0) this.log.warn({ recovered }, 'requeued jobs left running by a stopped worker');
      }
      const free = this.options.concurrency - this.running.size;
      if (free > 0) {
        for (const job of await this.jobs.claim(this.workerId, free, now)) {
          const run = this.execute(job).finally(() => {
            this.running.delete(job.id);
            this.nudge();
          });
          this.running.set(job.id, run);
        }
      }
    } catch (error) {
      this.log.error({ err: error }, 'job queue poll failed');
    }
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.type);
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload) as unknown;
      if (!handler) throw new Error(`no handler for job type ${job.type}`);
      const outcome = await handler.run(payload, job);
      if (outcome) await this.jobs.continueWith(this.workerId, job.id, outcome.continueWith, this.clock.now());
      else await this.jobs.complete(this.workerId, job.id, this.clock.now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryable = handler?.retryable?.(error) ?? true;
      const last = !retryable || job.attempts >= job.max_attempts;
      const base = this.options.backoffBaseMs ?? 5000;
      const now = this.clock.now();
      try {
        await this.jobs.fail(this.workerId, job, message, now, last ? null : now + base * 4 ** (job.attempts - 1));
        if (last) await handler?.onGiveUp?.(payload, error);
      } catch (inner) {
        this.log.error({ err: inner, jobId: job.id }, 'could not record a job failure');
      }
      this.log.warn(
        { jobId: job.id, type: job.type, attempt: job.attempts, final: last, error: message },
        'job failed',
      );
    }
  }
}
