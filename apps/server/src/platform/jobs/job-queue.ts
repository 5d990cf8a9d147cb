import {
  JobPayloadSchemas,
  JobProgressSchema,
  type JobName,
  type JobPayloadInput,
  type JobStatus,
  type JobProgress,
} from '@linkwise/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { currentRequestId } from '../request-context.js';
import type { AnyJobSpec } from './job.js';
import type { JobRepository, JobRow, NewJobRow } from './job.repository.js';

export interface EnqueueOptions {
  /** Enqueue inside this transaction: the job exists exactly when the change that needs it commits. */
  tx?: Kysely<DB>;
  /** Not before this time (epoch ms); now by default. */
  runAt?: number;
  /** Lower runs first (`Priority`); the job's own default otherwise. */
  priority?: number;
  /** At most one queued or running job per key; asking again meanwhile adds nothing. */
  dedupeKey?: string;
}

/** What a caller may know about a job. */
export interface JobView {
  id: string;
  name: string;
  status: JobStatus;
  /** As stored (a long job's payload is its cursor). */
  payload: unknown;
  attempts: number;
  progress: JobProgress | null;
  lastError: string | null;
  createdAt: number;
  finishedAt: number | null;
}

/**
 * Puts work in the queue. Payloads are checked against the contract's schema here (a bug fails
 * where it is made, not later in a worker) and again when a worker takes the job.
 */
export class JobQueue {
  private readonly specs: Map<string, AnyJobSpec>;

  constructor(
    private readonly jobs: JobRepository,
    private readonly clock: Clock,
    specs: AnyJobSpec[],
    /** Called after an enqueue outside a transaction, and by callers after their transaction commits. */
    private readonly wake: () => void = () => undefined,
  ) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
  }

  /** The id of the job queued, or null when its dedupe key was held by a live job. */
  async enqueue<N extends JobName>(
    name: N,
    payload: JobPayloadInput<N>,
    options: EnqueueOptions = {},
  ): Promise<string | null> {
    const [row] = this.rows(name, [{ payload, dedupeKey: options.dedupeKey }], options);
    const queued = await this.repository(options).insert([row!]);
    if (!options.tx) this.wake();
    return queued === 1 ? row!.id : null;
  }

  /** Many jobs of one name at once; how many were queued now. */
  async enqueueMany<N extends JobName>(
    name: N,
    items: { payload: JobPayloadInput<N>; dedupeKey?: string }[],
    options: Omit<EnqueueOptions, 'dedupeKey'> = {},
  ): Promise<number> {
    if (items.length === 0) return 0;
    const queued = await this.repository(options).insert(this.rows(name, items, options));
    if (!options.tx) this.wake();
    return queued;
  }

  /** Wakes this process's worker now (after the transaction that enqueued committed). */
  queued(): void {
    this.wake();
  }

  /** Cancels a queued job, or asks a running one to stop. False when it was already finished. */
  cancel(id: string): Promise<boolean> {
    return this.jobs.requestCancel(id, this.clock.now());
  }

  async find(id: string): Promise<JobView | undefined> {
    const row = await this.jobs.find(id);
    return row && view(row);
  }

  async findByDedupeKey(key: string): Promise<JobView | undefined> {
    const row = await this.jobs.findByDedupeKey(key);
    return row && view(row);
  }

  private repository(options: EnqueueOptions): JobRepository {
    return options.tx ? this.jobs.with(options.tx) : this.jobs;
  }

  private rows<N extends JobName>(
    name: N,
    items: { payload: JobPayloadInput<N>; dedupeKey?: string | undefined }[],
    options: EnqueueOptions,
  ): NewJobRow[] {
    const now = this.clock.now();
    const spec = this.specs.get(name);
    if (!spec) throw new Error(`job ${name} is not registered with the queue`);
    const requestId = currentRequestId();
    return items.map(({ payload, dedupeKey }) => ({
      id: newId(),
      type: name,
      payload: JSON.stringify(JobPayloadSchemas[name].parse(payload)),
      status: 'queued',
      max_attempts: spec.retry.attempts,
      priority: options.priority ?? spec.priority,
      dedupe_key: dedupeKey ?? null,
      progress: null,
      request_id: requestId,
      run_at: options.runAt ?? now,
      locked_at: null,
      locked_by: null,
      last_error: null,
      finished_at: null,
      created_at: now,
      updated_at: now,
    }));
  }
}

function view(row: JobRow): JobView {
  return {
    id: row.id,
    name: row.type,
    status: row.status,
    payload: JSON.parse(row.payload) as unknown,
    attempts: row.attempts,
    progress: row.progress ? JobProgressSchema.parse(JSON.parse(row.progress)) : null,
    lastError: row.last_error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
