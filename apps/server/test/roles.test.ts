import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiClient, type ApiClient } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { engines } from './harness.js';
import { createTestDatabase } from './pg.js';
import { freePort, launch, stop, until } from './processes.js';

/**
 * Process roles on one PostgreSQL database: an `api` process serves and enqueues, `worker`
 * processes run the jobs. Real processes, a real page server that counts its fetches.
 */
describe.each(engines().filter((e) => e === 'postgres'))('process roles on %s', () => {
  const cleanup: (() => unknown)[] = [];
  const fetches = new Map<string, number>();
  /** Requests to /hold/… wait here until released. */
  const held: ServerResponse[] = [];
  let pagesBase = '';
  let databaseUrl = '';
  let database: Database;
  let dataDir = '';
  let apiUrl = '';
  let api: ApiClient;

  const page = (title: string) =>
    `<html><head><title>${title}</title><meta name="description" content="About ${title}"></head><body><p>${title} text.</p></body></html>`;

  const start = async (role: 'api' | 'worker', extra: Record<string, string> = {}) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = await launch(
      {
        ROLE: role,
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'error',
        BILLING: 'off',
        FETCH_ALLOW_PRIVATE: 'true',
        // Tests never reach for the public model hub.
        MODEL_DOWNLOAD: 'false',
        ...extra,
      },
      url,
    );
    cleanup.push(() => stop(child));
    return { child, url };
  };

  beforeAll(async () => {
    const pages = createServer((req, res) => {
      const at = req.url ?? '/';
      fetches.set(at, (fetches.get(at) ?? 0) + 1);
      if (at.startsWith('/hold/') && fetches.get(at) === 1) return void held.push(res);
      res.setHeader('content-type', 'text/html');
      res.end(page(at.slice(1)));
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      pages.closeAllConnections();
      pages.close();
    });
    pagesBase = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    const pg = await createTestDatabase();
    cleanup.push(() => pg.drop());
    databaseUrl = pg.url;
    database = openDatabase({ databaseUrl, dataDir: tmpdir(), poolSize: 2 });
    cleanup.push(() => database.close());
    await migrateToLatest(database);
    dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-roles-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    ({ url: apiUrl } = await start('api'));
    const { token } = await createApiClient({ baseUrl: apiUrl }).register({
      body: { email: 'roles@example.com', username: 'roles', password: 'correct horse' },
    });
    api = createApiClient({ baseUrl: apiUrl, getToken: () => token });
  }, 60_000);

  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it('an api process analyses nothing itself: a worker does, each link exactly once with two workers', async () => {
    const links = [];
    for (let i = 0; i < 12; i++) links.push(await api.createLink({ body: { url: `${pagesBase}/page-${i}` } }));
    // Nothing runs the jobs yet: the api process only enqueues.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect([...fetches.keys()].filter((k) => k.startsWith('/page-'))).toEqual([]);
    const jobs = await database.db.selectFrom('jobs').select('status').execute();
    expect(jobs.map((j) => j.status)).toEqual(Array(12).fill('queued'));

    const workers = await Promise.all([start('worker'), start('worker')]);
    // A worker serves its health and nothing else.
    expect((await fetch(`${workers[0].url}/api/health`)).status).toBe(200);
    const other = await fetch(`${workers[0].url}/api/links`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });

    await until('every link analysed', async () => {
      const { data } = await api.listLinks({ query: { limit: 50 } });
      return data.every((l) => l.analysisStatus !== 'pending');
    });
    const { data } = await api.listLinks({ query: { limit: 50 } });
    expect(data.map((l) => l.analysisStatus)).toEqual(Array(12).fill('done'));
    expect(data.find((l) => l.url.endsWith('/page-3'))).toMatchObject({ title: 'page-3', description: 'About page-3' });
    for (let i = 0; i < 12; i++) expect(fetches.get(`/page-${i}`)).toBe(1);
    // Each job ran once: done at its first attempt, whichever worker took it.
    const runs = await database.db.selectFrom('jobs').select(['status', 'attempts']).execute();
    expect(runs).toEqual(Array(12).fill({ status: 'done', attempts: 1 }));
    for (const w of workers) await stop(w.child);
  }, 90_000);

  it('a worker killed mid-job: another worker picks the job up again', async () => {
    const lockTimeout = { JOB_LOCK_TIMEOUT_SECONDS: '2' };
    const first = await start('worker', lockTimeout);
    const link = await api.createLink({ body: { url: `${pagesBase}/hold/crash` } });
    await until('the first worker to fetch the page', () => held.length === 1);
    const killed: ChildProcess = first.child;
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    const orphan = await database.db
      .selectFrom('jobs')
      .selectAll()
      .where('dedupe_key', '=', `analyze-link:${link.id}`)
      .executeTakeFirstOrThrow();
    expect(orphan).toMatchObject({ status: 'running', attempts: 1 });

    await start('worker', lockTimeout);
    await until(
      'the link to be analysed',
      async () => (await api.getLink({ params: { id: link.id } })).analysisStatus !== 'pending',
    );
    expect(await api.getLink({ params: { id: link.id } })).toMatchObject({
      analysisStatus: 'done',
      title: 'hold/crash',
    });
    const job = await database.db.selectFrom('jobs').selectAll().where('id', '=', orphan.id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'done', attempts: 2 });
    expect(fetches.get('/hold/crash')).toBe(2);
  }, 90_000);
});
