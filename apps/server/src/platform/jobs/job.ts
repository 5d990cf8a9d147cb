import type { JobName, JobPayload, JobProgress } from '@linkwise/contract';
import type { FastifyBaseLogger } from 'fastify';

/** Lower runs first. Named so a job's file says what it is competing with. */
export const Priority = {
  /** Someone is waiting on the result (a link just saved). */
  interactive: 10,
  normal: 50,
  /** Backlogs: a 10,000-link import, re-embedding every link after a model change. */
  bulk: 90,
} as const;

/**
 * When a failed attempt runs again. `retryable` false means retrying cannot fix the error (a blocked
 * address, a payload that fails its schema): the job fails for good at once.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Attempt n (n ≥ 1) waits `baseMs × factor^(n−1)`, capped at `maxMs`. */
  backoff: { baseMs: number; factor: number; maxMs: number };
  retryable?(error: unknown): boolean;
}

export function retryDelay(policy: RetryPolicy, attempt: number): number {
  const { baseMs, factor, maxMs } = policy.backoff;
  return Math.min(maxMs, baseMs * factor ** Math.max(0, attempt - 1));
}

/** What a running job can see and say. */
export interface JobContext {
  readonly jobId: string;
  /** 1 on the first attempt. */
  readonly attempt: number;
  /** The request that enqueued the job, when one did. */
  readonly requestId: string | null;
  /** A logger carrying the job id, name and request id. */
  readonly log: FastifyBaseLogger;
  /** Aborted when someone cancels the job or the worker shuts down: stop at the next safe point. */
  readonly signal: AbortSignal;
  /** Records how far the job is; visible to whoever reads the job (imports, re-embedding). */
  progress(progress: JobProgress): Promise<void>;
}

/** What a run may ask for: to run again at once with a new payload (a long task done in steps). */
export interface JobContinuation<N extends JobName> {
  continueWith: JobPayload<N>;
}

/**
 * What every process must know of a job to enqueue it (an `api` process builds no handlers): its
 * default priority and its retry policy.
 */
export interface JobSpec<N extends JobName> {
  name: N;
  /** The priority `enqueue` uses when the caller gives none. */
  priority: number;
  retry: RetryPolicy;
}

/**
 * One kind of background work. Handlers must be idempotent: after a crash a job runs again from its
 * last saved payload, so a step may be repeated.
 */
export interface JobDefinition<N extends JobName> extends JobSpec<N> {
  run(payload: JobPayload<N>, ctx: JobContext): Promise<void | JobContinuation<N>>;
  /**
   * Whether this process can run such a job now (default: always); when not, it claims none and
   * leaves them to processes that can (re-embedding into a model this worker lacks).
   */
  available?(): Promise<boolean>;
  /** Called once, after the last attempt failed or the error was final. */
  onGiveUp?(payload: JobPayload<N>, error: unknown, ctx: JobContext): Promise<void>;
}

/** Any registered job, whatever its name (the runner's view; each is checked against its own name when defined). */
export type AnyJobDefinition = JobDefinition<JobName>;

export type AnyJobSpec = JobSpec<JobName>;

/** Type-checks a job's spec against its payload schema's name. */
export function jobSpec<N extends JobName>(spec: JobSpec<N>): JobSpec<N> {
  return spec;
}

/** Type-checks a job against its payload schema's name; one file per job, in its own feature. */
export function defineJob<N extends JobName>(
  spec: JobSpec<N>,
  handler: Pick<JobDefinition<N>, 'run' | 'onGiveUp' | 'available'>,
): JobDefinition<N> {
  return { ...spec, ...handler };
}
