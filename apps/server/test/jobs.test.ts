import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRepository } from '../src/modules/jobs/job.repository.js';
import { engines, startServer, type TestServer } from './harness.js';

describe.each(engines())('job queue on %s', (engine) => {
  let server: TestServer;
  let jobs: JobRepository;
  const now = Date.parse('2026-11-22T12:00:00Z');

  beforeAll(async () => {
    server = await startServer(engine);
    jobs = new JobRepository(server.database.db, server.database.engine);
  });
  afterAll(() => server.close());
  const clear = () => server.database.db.deleteFrom('jobs').execute();

  it('hands each job to exactly one of several workers claiming at the same moment', async () => {
    await clear();
    await jobs.enqueueMany(
      'test',
      Array.from({ length: 40 }, (_, i) => ({ i })),
      now,
    );
    const claims = await Promise.all(Array.from({ length: 4 }, (_, w) => jobs.claim(`worker-${w}`, 15, now)));
    const ids = claims.flat().map((j) => j.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(claims.flat().every((j) => j.status === 'running' && j.attempts === 1)).toBe(true);
  });

  it('retries later with backoff and gives up after max attempts', async () => {
    await clear();
    const id = await jobs.enqueue('test', {}, now, 2);
    const [first] = await jobs.claim('w', 1, now);
    await jobs.fail('w', first!, 'boom', now, now + 5000);
    expect(await jobs.claim('w', 1, now + 4999)).toHaveLength(0);
    const [second] = await jobs.claim('w', 1, now + 5000);
    expect(second).toMatchObject({ id, attempts: 2 });
    await jobs.fail('w', second!, 'boom again', now + 5000, now + 25000);
    expect(await jobs.find(id)).toMatchObject({ status: 'failed', last_error: 'boom again' });
    expect(await jobs.claim('w', 1, now + 60_000)).toHaveLength(0);
  });

  it('requeues jobs whose lock went stale and leaves fresh ones alone', async () => {
    await clear();
    const stale = await jobs.enqueue('test', {}, now);
    const fresh = await jobs.enqueue('test', {}, now + 1);
    await jobs.claim('dead', 1, now);
    await jobs.claim('alive', 1, now + 1);
    await jobs.heartbeat('alive', [fresh], now + 60_000);
    expect(await jobs.recoverStale(now + 30_000, now + 60_000)).toBe(1);
    expect(await jobs.find(stale)).toMatchObject({ status: 'queued', locked_by: null });
    expect(await jobs.find(fresh)).toMatchObject({ status: 'running', locked_by: 'alive' });
    // A worker that lost its lock cannot complete the job any more.
    await jobs.complete('dead', stale, now + 60_000);
    expect((await jobs.find(stale))?.status).toBe('queued');
  });

  it('keeps a single job single: queued once while live, again once finished, continued in place', async () => {
    await clear();
    expect(await jobs.enqueueOnce('only', 'test', { step: 0 }, now)).toBe(true);
    expect(await jobs.enqueueOnce('only', 'test', { step: 9 }, now)).toBe(false);
    const [run] = await jobs.claim('w', 1, now);
    expect(run).toMatchObject({ id: 'only', attempts: 1 });
    expect(await jobs.enqueueOnce('only', 'test', { step: 9 }, now)).toBe(false);
    // More to do: the same row goes back to the queue with its new payload and a fresh attempt budget.
    await jobs.continueWith('w', 'only', { step: 1 }, now + 1);
    expect(await jobs.find('only')).toMatchObject({
      status: 'queued',
      attempts: 0,
      payload: '{"step":1}',
      run_at: now + 1,
    });
    const [again] = await jobs.claim('w', 1, now + 1);
    await jobs.complete('w', again!.id, now + 2);
    expect(await jobs.enqueueOnce('only', 'test', { step: 0 }, now + 3)).toBe(true);
    expect(await jobs.find('only')).toMatchObject({ status: 'queued', attempts: 0, payload: '{"step":0}' });
    expect(await server.database.db.selectFrom('jobs').select('id').execute()).toEqual([{ id: 'only' }]);
  });

  it('queues many keyed jobs at once, each only where it is not already waiting or running', async () => {
    await clear();
    const batch = (step: number) => ['a', 'b', 'c'].map((id) => ({ id, payload: { id, step } }));
    expect(await jobs.enqueueEachOnce('test', batch(0), now)).toBe(3);
    const [running] = await jobs.claim('w', 1, now);
    await jobs.complete('w', running!.id, now + 1);
    // One finished: only it is queued again, with its new payload; the waiting two keep theirs.
    expect(await jobs.enqueueEachOnce('test', batch(1), now + 2)).toBe(1);
    const rows = await server.database.db
      .selectFrom('jobs')
      .select(['id', 'status', 'payload'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.status, (JSON.parse(r.payload) as { step: number }).step])).toEqual([
      ['queued', running!.id === 'a' ? 1 : 0],
      ['queued', running!.id === 'b' ? 1 : 0],
      ['queued', running!.id === 'c' ? 1 : 0],
    ]);
  });
});
