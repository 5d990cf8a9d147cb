import { createApiClient } from '@linkwise/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { engines } from './harness.js';
import { finished, getImport, netscapeFile, upload } from './import-helpers.js';
import { freshServer, launch, stop, until } from './processes.js';

describe.each(engines())('an import whose server is SIGKILLed on %s', (engine) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it('resumes after a restart from its last checkpoint and creates every link exactly once', async () => {
    const { url, env } = await freshServer(engine, cleanup);
    let child = await launch(env, url);
    cleanup.push(() => stop(child));
    const { token } = await createApiClient({ baseUrl: url }).register({
      body: { email: 'import-crash@example.com', username: 'importcrash', password: 'correct horse' },
    });
    const api = createApiClient({ baseUrl: url, getToken: () => token });

    // A smaller file on PostgreSQL keeps this suite short; it is still many 500-link batches.
    const total = engine === 'sqlite' ? 20_000 : 3_000;
    const { status, body } = await upload(url, token, netscapeFile(total));
    expect(status).toBe(202);
    const id = String(body.id);
    // Killed once some batches have committed and before the last one.
    await until('some batches committed', async () => (await getImport(url, token, id)).processed >= 1000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const atKill = (
      await (async () => {
        child = await launch(env, url);
        return getImport(url, token, id);
      })()
    ).processed;
    expect(atKill).toBeLessThan(total);

    const result = await finished(url, token, id, 150_000);
    expect(result).toMatchObject({ status: 'done', total, processed: total, created: total, duplicates: 0, failed: 0 });
    expect(result.errors).toEqual([]);
    const { actualTotal } = await api.listLinks({ query: { limit: 1 } });
    expect(actualTotal).toBe(total);
    const last = await api.listLinks({ query: { search: `number ${total - 1}` } });
    expect(last.data.map((l) => l.url)).toContain(`https://bulk.example.com/item/${total - 1}`);
  }, 240_000);
});
