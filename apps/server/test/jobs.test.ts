import type { AnalyzeLinkPayload, JobName } from '@linkwise/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { defineJob, Priority, retryDelay, type JobDefinition, type JobSpec } from '../src/platform/jobs/job.js';
import { JobQueue } from '../src/platform/jobs/job-queue.js';
import { JOBS_CHANNEL, JobRepository } from '../src/platform/jobs/job.repository.js';
import { JobRunner } from '../src/platform/jobs/job-runner.js';
import { runInRequest } from '../src/platform/request-context.js';
import { engines, startServer, TestClock, type TestServer } from './harness.js';

/** A test job under a real job name (names are the contract's); JOBS_ENABLED=false keeps the server's own worker off. */
const spec = (attempts = 3, retryable?: (error: unknown) => boolean): JobSpec<'analyze-link'> => ({
  name: 'analyze-link',
  priority: Priority.interactive,
  retry: { attempts, backoff: { baseMs: 1000, factor: 4, maxMs: 60_000 }, ...(retryable && { retryable }) },
});

/** Every job name, as a worker that has every handler claims them. */
const NAMES: JobName[] = ['analyze-link', 'reembed-links'];

const until = async (what: string, check: () => Promise<boolean> | boolean) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe.each(engines())('job platform on %s', (engine) => {
  let server: TestServer;
  let jobs: JobRepository;
  let clock: TestClock;
  let queue: JobQueue;
  const runners: JobRunner[] = [];

  beforeAll(async () => {
    server = await startServer(engine);
    jobs = new JobRepository(server.database.db, server.database.engine);
  });
  afterAll(async () => {
    for (const r of runners) await r.stop();
    await server.close();
  });
  beforeEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
    await server.database.db.deleteFrom('jobs').execute();
    clock = new TestClock();
    queue = new JobQueue(jobs, clock, [spec(), { ...spec(), name: 'reembed-links', priority: Priority.bulk }]);
  });

  const runner = (definition: JobDefinition<JobName>, concurrency = 1) => {
    const r = new JobRunner(jobs, clock, server.app.log, { concurrency, lockTimeoutMs: 60_000, pollMs: 20 });
    r.register(definition);
    runners.push(r);
    return r;
  };
  const row = (id: string) => jobs.find(id);
  const payload = (n: number): AnalyzeLinkPayload => ({ linkId: `link-${n}`, userId: 'user' });

  it('hands each job to exactly one of several workers claiming at the same moment', async () => {
    await queue.enqueueMany(
      'analyze-link',
      Array.from({ length: 40 }, (_, i) => ({ payload: payload(i) })),
    );
    const claims = await Promise.all(
      Array.from({ length: 4 }, (_, w) => jobs.claim(`worker-${w}`, NAMES, 15, clock.now())),
    );
    const ids = claims.flat().map((j) => j.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(claims.flat().every((j) => j.status === 'running' && j.attempts === 1)).toBe(true);
  });

  it('runs interactive work before an older bulk backlog', async () => {
    await queue.enqueueMany(
      'reembed-links',
      Array.from({ length: 5 }, (_, i) => ({ payload: { model: 'm', dims: 1, after: String(i) } })),
    );
    clock.advance(60_000);
    const urgent = await queue.enqueue('analyze-link', payload(1));
    const claimed = await jobs.claim('w', NAMES, 3, clock.now());
    expect(claimed[0]?.id).toBe(urgent);
    expect(claimed.map((j) => j.type)).toEqual(['analyze-link', 'reembed-links', 'reembed-links']);
    // A caller may raise or lower a job's priority.
    const late = await queue.enqueue('analyze-link', payload(2), { priority: Priority.bulk + 1 });
    expect((await row(late!))?.priority).toBe(Priority.bulk + 1);
  });

  it('keeps one live job per dedupe key, and queues a finished one again', async () => {
    const first = await queue.enqueue('analyze-link', payload(1), { dedupeKey: 'k' });
    expect(first).not.toBeNull();
    expect(await queue.enqueue('analyze-link', payload(2), { dedupeKey: 'k' })).toBeNull();
    const [claimed] = await jobs.claim('w', NAMES, 1, clock.now());
    expect(await queue.enqueue('analyze-link', payload(2), { dedupeKey: 'k' })).toBeNull();
    await jobs.finish('w', claimed!.id, { status: 'done' }, clock.now());
    expect(await queue.enqueue('analyze-link', payload(3), { dedupeKey: 'k' })).not.toBeNull();
    const rows = await server.database.db.selectFrom('jobs').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'queued',
      attempts: 0,
      finished_at: null,
      payload: JSON.stringify(payload(3)),
    });
    // Many at once: only keys not already live are queued.
    const many = await queue.enqueueMany('analyze-link', [
      { payload: payload(4), dedupeKey: 'k' },
      { payload: payload(5), dedupeKey: 'other' },
    ]);
    expect(many).toBe(1);
  });

  it('enqueues inside the caller’s transaction: a rollback leaves no job', async () => {
    await expect(
      server.database.db.transaction().execute(async (trx) => {
        await queue.enqueue('analyze-link', payload(1), { tx: trx });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await server.database.db.selectFrom('jobs').select('id').execute()).toEqual([]);
    await server.database.db.transaction().execute((trx) => queue.enqueue('analyze-link', payload(1), { tx: trx }));
    expect(await server.database.db.selectFrom('jobs').select('id').execute()).toHaveLength(1);
  });

  it('checks payloads against the contract when enqueued and again when dequeued', async () => {
    await expect(queue.enqueue('analyze-link', { linkId: '', userId: 'u' })).rejects.toBeInstanceOf(ZodError);
    // A row written by hand (or an older release) with a payload the schema refuses.
    const bad = await queue.enqueue('analyze-link', payload(1));
    await server.database.db.updateTable('jobs').set({ payload: '{"linkId": 42}' }).execute();
    const seen: unknown[] = [];
    runner(defineJob(spec(5), { run: (p) => Promise.resolve(void seen.push(p)) })).start();
    await until('the bad job to fail', async () => (await row(bad!))?.status === 'failed');
    expect(seen).toEqual([]);
    // Final at once: retrying cannot fix a payload.
    expect(await row(bad!)).toMatchObject({ attempts: 1, status: 'failed' });
    expect((await row(bad!))?.last_error).toMatch(/expected string/i);
  });

  it('retries by the job’s own policy, then fails for good and gives up once', async () => {
    const id = await queue.enqueue('analyze-link', payload(1));
    let runs = 0;
    const gaveUp: unknown[] = [];
    const r = runner(
      defineJob(spec(3), {
        run: () => Promise.reject(new Error(`boom ${++runs}`)),
        onGiveUp: (p, error) => Promise.resolve(void gaveUp.push([p, (error as Error).message])),
      }),
    );
    r.start();
    await until('the first attempt', async () => (await row(id!))?.last_error === 'boom 1');
    const first = await row(id!);
    expect(first).toMatchObject({ status: 'queued', attempts: 1, run_at: clock.now() + retryDelay(spec(3).retry, 1) });
    clock.advance(1000);
    r.nudge();
    await until('the second attempt', async () => (await row(id!))?.last_error === 'boom 2');
    expect((await row(id!))?.run_at).toBe(clock.now() + 4000);
    clock.advance(4000);
    r.nudge();
    await until('the final state', async () => (await row(id!))?.status === 'failed');
    expect(await row(id!)).toMatchObject({ attempts: 3, last_error: 'boom 3', finished_at: clock.now() });
    await until('give-up', () => gaveUp.length === 1);
    expect(gaveUp).toEqual([[payload(1), 'boom 3']]);
    expect(runs).toBe(3);
  });

  it('leaves jobs it has no handler for to the workers that have one', async () => {
    const other = await queue.enqueue('reembed-links', { model: 'm', dims: 1 });
    const mine = await queue.enqueue('analyze-link', payload(1));
    runner(defineJob(spec(), { run: () => Promise.resolve() })).start();
    await until('its own job done', async () => (await row(mine!))?.status === 'done');
    expect(await row(other!)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('fails at once on an error the policy says retrying cannot fix', async () => {
    const id = await queue.enqueue('analyze-link', payload(1));
    class Final extends Error {}
    runner(
      defineJob(
        spec(5, (e) => !(e instanceof Final)),
        { run: () => Promise.reject(new Final('blocked address')) },
      ),
    ).start();
    await until('the final state', async () => (await row(id!))?.status === 'failed');
    expect(await row(id!)).toMatchObject({ attempts: 1, last_error: 'blocked address' });
  });

  it('records progress where callers can read it, and continues a long job in the same row', async () => {
    const id = await queue.enqueue('analyze-link', payload(0));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    runner(
      defineJob(spec(), {
        async run(p, ctx) {
          const step = Number(p.linkId.split('-')[1]);
          await ctx.progress({ done: step + 1, total: 3 });
          if (step === 1) await held;
          return step < 2 ? { continueWith: { ...p, linkId: `link-${step + 1}` } } : undefined;
        },
      }),
    ).start();
    await until('progress 2 of 3', async () => (await queue.find(id!))?.progress?.done === 2);
    expect(await queue.find(id!)).toMatchObject({ status: 'running', progress: { done: 2, total: 3 } });
    release();
    await until('done', async () => (await queue.find(id!))?.status === 'done');
    expect(await queue.find(id!)).toMatchObject({ progress: { done: 3, total: 3 }, payload: payload(2) });
    expect(await server.database.db.selectFrom('jobs').select('id').execute()).toEqual([{ id }]);
  });

  it('cancels a queued job at once and a running one at its next heartbeat', async () => {
    const waiting = await queue.enqueue('analyze-link', payload(1), { runAt: clock.now() + 60_000 });
    expect(await queue.cancel(waiting!)).toBe(true);
    expect(await queue.find(waiting!)).toMatchObject({ status: 'canceled' });
    expect(await queue.cancel(waiting!)).toBe(false);

    const running = await queue.enqueue('analyze-link', payload(2));
    let sawAbort = false;
    runner(
      defineJob(spec(), {
        run: (_p, ctx) =>
          new Promise<void>((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => {
              sawAbort = true;
              reject(new Error('stopped'));
            });
          }),
      }),
    ).start();
    await until('running', async () => (await row(running!))?.status === 'running');
    expect(await queue.cancel(running!)).toBe(true);
    await until('canceled', async () => (await row(running!))?.status === 'canceled');
    expect(sawAbort).toBe(true);
    expect((await row(running!))?.finished_at).not.toBeNull();
  });

  it('gives a job back unfinished when its worker shuts down (the attempt not counted)', async () => {
    const id = await queue.enqueue('analyze-link', payload(1));
    const r = runner(
      defineJob(spec(), {
        run: (_p, ctx) =>
          new Promise<void>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('x')))),
      }),
    );
    r.start();
    await until('running', async () => (await row(id!))?.status === 'running');
    await r.stop();
    expect(await row(id!)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });
  });

  it('requeues jobs whose lock went stale and leaves fresh ones alone', async () => {
    const stale = await queue.enqueue('analyze-link', payload(1));
    const fresh = await queue.enqueue('analyze-link', payload(2), { runAt: clock.now() + 1 });
    const now = clock.now();
    await jobs.claim('dead', NAMES, 1, now);
    await jobs.claim('alive', NAMES, 1, now + 1);
    await jobs.heartbeat('alive', [fresh!], now + 60_000);
    expect(await jobs.recoverStale(now + 30_000, now + 60_000)).toBe(1);
    expect(await row(stale!)).toMatchObject({ status: 'queued', locked_by: null });
    expect(await row(fresh!)).toMatchObject({ status: 'running', locked_by: 'alive' });
    // A stale job someone asked to cancel ends canceled, not queued again.
    const canceled = await queue.enqueue('analyze-link', payload(3), { runAt: now + 2 });
    await jobs.claim('dead-too', NAMES, 1, now + 2);
    expect(await queue.cancel(canceled!)).toBe(true);
    expect(await jobs.recoverStale(now + 30_000, now + 60_000)).toBe(1);
    expect(await row(canceled!)).toMatchObject({ status: 'canceled', finished_at: now + 60_000 });
    // A worker that lost its lock cannot finish the job any more.
    await jobs.finish('dead', stale!, { status: 'done' }, now + 60_000);
    expect((await row(stale!))?.status).toBe('queued');
  });

  it('prunes finished jobs after their time, failed ones later', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map((n) => queue.enqueue('analyze-link', payload(n))));
    for (const job of await jobs.claim('w', NAMES, 3, clock.now())) {
      if (job.id === a) await jobs.finish('w', job.id, { status: 'done' }, 1000);
      else if (job.id === b) await jobs.fail('w', job.id, 'x', 1000, null);
    }
    expect(await jobs.prune(2000, 500)).toBe(1);
    expect((await server.database.db.selectFrom('jobs').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(
      [b, c].sort(),
    );
  });

  it('records the request that enqueued a job', async () => {
    const id = await runInRequest({ requestId: 'req-42' }, () => queue.enqueue('analyze-link', payload(1)));
    expect((await row(id!))?.request_id).toBe('req-42');
    // Through HTTP: a saved link's analysis job carries the request's id.
    const { token } = await server.signUp('rid');
    const response = await fetch(`${server.url}/api/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': 'save-123' },
      body: JSON.stringify({ url: 'https://example.com/rid' }),
    });
    expect(response.status).toBe(201);
    const link = (await response.json()) as { id: string };
    const job = await server.database.db
      .selectFrom('jobs')
      .select(['request_id', 'priority', 'dedupe_key'])
      .where('dedupe_key', '=', `analyze-link:${link.id}`)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({
      request_id: 'save-123',
      priority: Priority.interactive,
      dedupe_key: `analyze-link:${link.id}`,
    });
  });
});

describe.each(engines().filter((e) => e === 'postgres'))('job notifications on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  it('wake an idle worker in another process when a job is queued', async () => {
    const jobs = new JobRepository(server.database.db, server.database.engine);
    const clock = new TestClock();
    const queue = new JobQueue(jobs, clock, [spec()]);
    let runs = 0;
    // A worker that would not poll again for a minute: only the notification can start the job in time.
    const idle = new JobRunner(jobs, clock, server.app.log, { concurrency: 1, lockTimeoutMs: 60_000, pollMs: 60_000 });
    idle.register(defineJob(spec(), { run: () => Promise.resolve(void runs++) }));
    idle.start();
    const stopListening = await server.database.listen!(JOBS_CHANNEL, () => idle.nudge());
    try {
      await new Promise((resolve) => setTimeout(resolve, 200)); // its first poll found nothing
      expect(runs).toBe(0);
      // Enqueued by a queue that wakes no local worker, inside a transaction (notified at commit).
      await server.database.db
        .transaction()
        .execute((trx) => queue.enqueue('analyze-link', { linkId: 'l', userId: 'u' }, { tx: trx }));
      await until('the notified worker to run the job', () => runs === 1);
    } finally {
      await stopListening();
      await idle.stop();
    }
  });
});
