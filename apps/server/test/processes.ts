import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Engine } from '../src/db/database.js';
import { freePort } from './harness.js';
import { createTestDatabase } from './pg.js';

export { freePort };

const root = fileURLToPath(new URL('../../../', import.meta.url));
const mainTs = path.join(root, 'apps/server/src/main.ts');

/** The real server from source as a child process; resolves once it answers /api/health. */
export async function launch(env: Record<string, string>, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=@linkwise/source', '--import', 'tsx', mainTs], {
    cwd: root,
    // Never reach for the public model hub from a test (a test may still ask for it).
    env: { PATH: process.env.PATH, MODEL_DOWNLOAD: 'false', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

/** Stops a launched server (SIGTERM, then waits for it to exit) unless it is gone already. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Polls `check` every 100 ms for up to 40 s. */
export const until = async (what: string, check: () => Promise<boolean> | boolean): Promise<void> => {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/**
 * What a crash test's server needs: a fresh data folder (and PostgreSQL database), a free port and
 * the environment to launch it with; both are removed by `cleanup`.
 */
export async function freshServer(
  engine: Engine,
  cleanup: (() => Promise<void> | void)[],
  extra: Record<string, string> = {},
): Promise<{ url: string; dataDir: string; databaseUrl: string | undefined; env: Record<string, string> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-crash-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const pg = engine === 'postgres' ? await createTestDatabase() : undefined;
  if (pg) cleanup.push(() => pg.drop());
  const port = await freePort();
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    BILLING: 'off',
    JOB_LOCK_TIMEOUT_SECONDS: '2',
    ...(pg && { DATABASE_URL: pg.url }),
    ...extra,
  };
  return { url: `http://127.0.0.1:${port}`, dataDir, databaseUrl: pg?.url, env };
}
