import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Engine } from '../../db/database.js';
import type { DB, JobsTable } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';

export type JobRow = Selectable<JobsTable>;

/** A new queued job row; also written by repositories that enqueue inside their own transaction. */
export function newJobRow(type: string, payload: unknown, now: number, maxAttempts = 5): Insertable<JobsTable> {
  return {
    id: newId(),
    type,
    payload: JSON.stringify(payload),
    status: 'queued',
    max_attempts: maxAttempts,
    run_at: now,
    locked_at: null,
    locked_by: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}

/** The durable queue over the `jobs` table: the only place its SQL lives. */
export class JobRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine,
  ) {}

  async enqueue(type: string, payload: unknown, now: number, maxAttempts = 5): Promise<string> {
    const [id] = await this.enqueueMany(type, [payload], now, maxAttempts);
    return id!;
  }

  /** Inserts jobs in chunks (one statement per 500 jobs). */
  async enqueueMany(type: string, payloads: unknown[], now: number, maxAttempts = 5): Promise<string[]> {
    const rows = payloads.map((payload) => newJobRow(type, payload, now, maxAttempts));
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .insertInto('jobs')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    return rows.map((r) => r.id);
  }

  /**
   * Queues the one job with this id unless it is already queued or running: a job that must exist
   * at most once (a chain that continues itself, a link's analysis). A finished or failed one is
   * queued again with the new payload. Instances starting together insert one row between them (the
   * primary key decides). True when this call queued it.
   */
  async enqueueOnce(id: string, type: string, payload: unknown, now: number, maxAttempts = 5): Promise<boolean> {
    return (await this.enqueueEachOnce(type, [{ id, payload }], now, maxAttempts)) === 1;
  }

  /** `enqueueOnce` for many jobs of one type (one statement per 500): how many were queued now. */
  async enqueueEachOnce(
    type: string,
    jobs: { id: string; payload: unknown }[],
    now: number,
    maxAttempts = 5,
  ): Promise<number> {
    let queued = 0;
    for (let i = 0; i < jobs.length; i += 500) {
      const rows = jobs.slice(i, i + 500).map((j) => ({ ...newJobRow(type, j.payload, now, maxAttempts), id: j.id }));
      const result = await this.db
        .insertInto('jobs')
        .values(rows)
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => ({
              type,
              payload: eb.ref('excluded.payload'),
              status: 'queued',
              attempts: 0,
              max_attempts: maxAttempts,
              run_at: now,
              locked_at: null,
              locked_by: null,
              last_error: null,
              updated_at: now,
            }))
            .where('jobs.status', 'in', ['done', 'failed']),
        )
        .executeTakeFirst();
      queued += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return queued;
  }

  /**
   * A running job that has more to do goes back to the queue with its new payload (a cursor), due at
   * once, with a fresh budget of attempts: the same row, so a chain never has two live links.
   */
  async continueWith(worker: string, id: string, payload: unknown, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status: 'queued',
        payload: JSON.stringify(payload),
        attempts: 0,
        run_at: now,
        locked_at: null,
        locked_by: null,
        last_error: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  /**
   * Claims up to `limit` due jobs for `worker`. On PostgreSQL the candidate rows are locked with
   * FOR UPDATE SKIP LOCKED, so instances polling at the same moment take different jobs and none
   * runs twice; SQLite has one writer at a time, so the single statement is already exclusive.
   */
  async claim(worker: string, limit: number, now: number): Promise<JobRow[]> {
    let due = this.db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'queued')
      .where('run_at', '<=', now)
      .orderBy('run_at')
      .limit(limit);
    if (this.engine === 'postgres') due = due.forUpdate().skipLocked();
    return this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        locked_at: now,
        locked_by: worker,
        attempts: eb('attempts', '+', 1),
        updated_at: now,
      }))
      .where('id', 'in', due)
      .where('status', '=', 'queued')
      .returningAll()
      .execute();
  }

  /** Keeps a running job's lock fresh so other instances do not take it for a crashed one. */
  async heartbeat(worker: string, ids: string[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('jobs')
      .set({ locked_at: now })
      .where('id', 'in', ids)
      .where('locked_by', '=', worker)
      .where('status', '=', 'running')
      .execute();
  }

  async complete(worker: string, id: string, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: 'done', locked_at: null, locked_by: null, last_error: null, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  /** Puts a failed attempt back in the queue at `retryAt`, or marks the job failed for good. */
  async fail(worker: string, job: JobRow, error: string, now: number, retryAt: number | null): Promise<void> {
    const final = retryAt === null || job.attempts >= job.max_attempts;
    await this.db
      .updateTable('jobs')
      .set({
        status: final ? 'failed' : 'queued',
        run_at: final ? job.run_at : retryAt,
        locked_at: null,
        locked_by: null,
        last_error: error.slice(0, 1000),
        updated_at: now,
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', worker)
      .execute();
  }

  /**
   * Jobs whose lock went stale (their instance crashed or was killed mid-job) run again; the
   * attempt they were on still counts, so a job that kills its worker every time ends as failed.
   */
  async recoverStale(staleBefore: number, now: number): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set({
        status: sql<'queued' | 'failed'>`case when attempts >= max_attempts then 'failed' else 'queued' end`,
        locked_at: null,
        locked_by: null,
        last_error: 'the worker stopped while running this job',
        run_at: now,
        updated_at: now,
      })
      .where('status', '=', 'running')
      .where('locked_at', '<', staleBefore)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  find(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
