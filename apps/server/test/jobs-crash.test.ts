import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '@linkwise/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { engines } from './harness.js';
import { freshServer, launch, stop, until } from './processes.js';

describe.each(engines())('a server killed mid-job on %s', (engine) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it('loses nothing: after a restart the job runs again and completes', async () => {
    // The page holds its first request open, so the job is surely mid-run when the server dies.
    const held: ServerResponse[] = [];
    let requests = 0;
    const pages = createServer((req, res) => {
      // Only the page counts; the analysis also asks the site for its icon.
      if (req.url !== '/article') return void res.writeHead(404).end();
      requests += 1;
      if (requests === 1) return void held.push(res);
      res.setHeader('content-type', 'text/html');
      res.end(
        '<html><head><title>Survived the crash</title><meta name="description" content="Back again"></head><body><p>Text of the page after the restart.</p></body></html>',
      );
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      pages.closeAllConnections();
      pages.close();
    });
    const pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/article`;

    const { url, env, dataDir, databaseUrl } = await freshServer(engine, cleanup, {
      FETCH_ALLOW_PRIVATE: 'true',
      // SQLite has one process: what it left running is rerun at its next start, without the lock timeout.
      ...(engine === 'sqlite' && { JOB_LOCK_TIMEOUT_SECONDS: '3600' }),
    });
    let child = await launch(env, url);
    cleanup.push(() => stop(child));
    const { token } = await createApiClient({ baseUrl: url }).register({
      body: { email: 'crash@example.com', username: 'crash', password: 'correct horse' },
    });
    const api = createApiClient({ baseUrl: url, getToken: () => token });
    const link = await api.createLink({ body: { url: pageUrl } });
    await until('the job to fetch the page', () => held.length === 1);

    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const database = openDatabase({ databaseUrl, dataDir, poolSize: 1 });
    cleanup.push(() => database.close());
    const orphan = await database.db.selectFrom('jobs').selectAll().executeTakeFirstOrThrow();
    expect(orphan).toMatchObject({ status: 'running', attempts: 1 });

    child = await launch(env, url);
    await until(
      'the link to be analysed',
      async () => (await api.getLink({ params: { id: link.id } })).analysisStatus !== 'pending',
    );
    const done = await api.getLink({ params: { id: link.id } });
    expect(done).toMatchObject({ analysisStatus: 'done', title: 'Survived the crash', description: 'Back again' });
    const job = () => database.db.selectFrom('jobs').selectAll().where('id', '=', orphan.id).executeTakeFirstOrThrow();
    await until('the job to be recorded done', async () => (await job()).status !== 'running');
    expect(await job()).toMatchObject({ status: 'done', attempts: 2 });
    expect(requests).toBe(2);
  }, 120_000);
});
