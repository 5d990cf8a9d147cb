import { sql, type Insertable, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Engine } from '../../db/database.js';
import type { DB, JobsTable } from '../../db/schema.js';

export type JobRow = Selectable<JobsTable>;
export type NewJobRow = Insertable<JobsTable>;

const FINISHED = ['done', 'failed', 'canceled'] as const;

/** PostgreSQL: NOTIFY'd when jobs are queued, so idle workers in other processes start at once. */
export const JOBS_CHANNEL = 'linkwise_jobs';

/** The durable queue over the `jobs` table: the only place its SQL lives. */
export class JobRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine,
  ) {}

  /** The same repository inside a caller's transaction (enqueue together with the change). */
  with(db: Kysely<DB>): JobRepository {
    return new JobRepository(db, this.engine);
  }

  /**
   * Inserts jobs (one statement per 500). A row with a dedupe key that a queued or running job
   * already holds adds nothing; one whose key belongs to a finished job queues that row again with
   * the new payload (the unique index decides between instances inserting at the same moment).
   * Returns how many jobs were queued now.
   */
  async insert(rows: NewJobRow[]): Promise<number> {
    let queued = 0;
    const plain = rows.filter((r) => r.dedupe_key == null);
    const keyed = rows.filter((r) => r.dedupe_key != null);
    for (let i = 0; i < plain.length; i += 500) {
      await this.db
        .insertInto('jobs')
        .values(plain.slice(i, i + 500))
        .execute();
      queued += Math.min(500, plain.length - i);
    }
    for (let i = 0; i < keyed.length; i += 500) {
      const result = await this.db
        .insertInto('jobs')
        .values(keyed.slice(i, i + 500))
        .onConflict((oc) =>
          oc
            .column('dedupe_key')
            .doUpdateSet((eb) => ({
              type: eb.ref('excluded.type'),
              payload: eb.ref('excluded.payload'),
              status: 'queued',
              attempts: 0,
              max_attempts: eb.ref('excluded.max_attempts'),
              priority: eb.ref('excluded.priority'),
              progress: null,
              request_id: eb.ref('excluded.request_id'),
              run_at: eb.ref('excluded.run_at'),
              locked_at: null,
              locked_by: null,
              last_error: null,
              cancel_requested: 0,
              finished_at: null,
              updated_at: eb.ref('excluded.updated_at'),
            }))
            .where('jobs.status', 'in', FINISHED),
        )
        .executeTakeFirst();
      queued += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    // Inside a transaction the notification is delivered at commit, when the jobs are visible.
    if (queued > 0 && this.engine === 'postgres') await sql`select pg_notify(${JOBS_CHANNEL}, '')`.execute(this.db);
    return queued;
  }

  /**
   * Claims up to `limit` due jobs of `types` for `worker`, most urgent first. On PostgreSQL the candidate rows
   * are locked with FOR UPDATE SKIP LOCKED, so workers polling at the same moment take different
   * jobs and none runs twice; SQLite has one writer at a time, so the statement is already exclusive.
   */
  async claim(worker: string, types: string[], limit: number, now: number): Promise<JobRow[]> {
    if (types.length === 0) return [];
    let due = this.db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'queued')
      .where('type', 'in', types)
      .where('run_at', '<=', now)
      .orderBy('priority')
      .orderBy('run_at')
      .limit(limit);
    if (this.engine === 'postgres') due = due.forUpdate().skipLocked();
    // PostgreSQL may run an IN (subquery) again per row, taking more than `limit`: ARRAY() runs it once.
    const chosen = this.engine === 'postgres' ? sql<SqlBool>`id = any(array(${due}))` : sql<SqlBool>`id in (${due})`;
    const claimed = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        locked_at: now,
        locked_by: worker,
        attempts: eb('attempts', '+', 1),
        updated_at: now,
      }))
      .where(chosen)
      .where('status', '=', 'queued')
      .returningAll()
      .execute();
    // RETURNING gives no order: run the most urgent first.
    return claimed.sort((a, b) => a.priority - b.priority || a.run_at - b.run_at);
  }

  /**
   * Keeps running jobs' locks fresh so other workers do not take them for crashed ones, and answers
   * which of them someone asked to cancel.
   */
  async heartbeat(worker: string, ids: string[], now: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable('jobs')
      .set({ locked_at: now })
      .where('id', 'in', ids)
      .where('locked_by', '=', worker)
      .where('status', '=', 'running')
      .returning(['id', 'cancel_requested'])
      .execute();
    return rows.filter((r) => r.cancel_requested === 1).map((r) => r.id);
  }

  /** Ends a run: done, canceled, or (with a payload) back in the queue at once as the next step. */
  async finish(
    worker: string,
    id: string,
    outcome: { status: 'done' | 'canceled' } | { continueWith: string },
    now: number,
  ): Promise<void> {
    const set =
      'continueWith' in outcome
        ? // A new step gets a fresh budget of attempts: the same row, so a chain never has two live links.
          { status: 'queued' as const, payload: outcome.continueWith, attempts: 0, run_at: now, finished_at: null }
        : { status: outcome.status, finished_at: now };
    await this.db
      .updateTable('jobs')
      .set({ ...set, locked_at: null, locked_by: null, last_error: null, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  /** Puts a failed attempt back in the queue at `retryAt`, or marks the job failed for good (null). */
  async fail(worker: string, id: string, error: string, now: number, retryAt: number | null): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status: retryAt === null ? 'failed' : 'queued',
        ...(retryAt !== null && { run_at: retryAt }),
        finished_at: retryAt === null ? now : null,
        locked_at: null,
        locked_by: null,
        last_error: error.slice(0, 1000),
        updated_at: now,
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  /** Gives a job back unfinished (its worker is shutting down): due at once, the attempt not counted. */
  async release(worker: string, id: string, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'queued',
        attempts: eb('attempts', '-', 1),
        run_at: now,
        locked_at: null,
        locked_by: null,
        updated_at: now,
      }))
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  async progress(worker: string, id: string, progress: string, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ progress, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  /**
   * Jobs whose lock went stale (their worker crashed or was killed mid-job) run again; the attempt
   * they were on still counts, so a job that kills its worker every time ends as failed.
   */
  async recoverStale(staleBefore: number, now: number): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set({
        // A job someone asked to cancel is not started again.
        status: sql<'queued' | 'failed' | 'canceled'>`case when cancel_requested = 1 then 'canceled'
          when attempts >= max_attempts then 'failed' else 'queued' end`,
        finished_at: sql<number | null>`case when cancel_requested = 1 or attempts >= max_attempts
          then cast(${now} as bigint) else null end`,
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

  /**
   * A queued job is canceled at once; a running one is asked to stop (its worker notices at the next
   * heartbeat). False when the job is already finished or does not exist.
   */
  async requestCancel(id: string, now: number): Promise<boolean> {
    const queued = await this.db
      .updateTable('jobs')
      .set({ status: 'canceled', finished_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    if (Number(queued.numUpdatedRows) === 1) return true;
    const running = await this.db
      .updateTable('jobs')
      .set({ cancel_requested: 1, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(running.numUpdatedRows) === 1;
  }

  find(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByDedupeKey(key: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', key).executeTakeFirst();
  }

  /** Removes finished jobs older than the given times (failed ones are kept longer, for diagnosis). */
  async prune(doneBefore: number, failedBefore: number): Promise<number> {
    const result = await this.db
      .deleteFrom('jobs')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', 'in', ['done', 'canceled']), eb('finished_at', '<', doneBefore)]),
          eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', failedBefore)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Queued and running jobs by name (the metrics' queue depth). */
  async depth(): Promise<{ type: string; status: string; n: number }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['type', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('status', 'in', ['queued', 'running'])
      .groupBy(['type', 'status'])
      .execute();
    return rows.map((r) => ({ type: r.type, status: r.status, n: Number(r.n) }));
  }
}
