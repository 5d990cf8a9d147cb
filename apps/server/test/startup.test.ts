import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest, migrationNames } from '../src/db/migrator.js';
import { checkDatabaseReachable, databaseProblem, MIGRATION_WAIT, openMigrated } from '../src/startup-errors.js';
import { engines, startServer } from './harness.js';
import { createTestDatabase } from './pg.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const mainTs = path.join(root, 'apps/server/src/main.ts');

/** Runs the real entry point (from source) and collects its output until it exits or is stopped. */
function runMain(env: Record<string, string>, untilOutput?: RegExp) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--conditions=@linkwise/source', '--import', 'tsx', mainTs], {
      cwd: root,
      // Tests never reach for the public model hub.
      env: { PATH: process.env.PATH, MODEL_DOWNLOAD: 'false', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (untilOutput?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('start-up', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('stops with one readable line on a bad variable', async () => {
    const { code, stderr } = await runMain({ PORT: 'banana' });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('Invalid configuration: PORT must be a port number between 0 and 65535 (got "banana")');
  });

  it('stops before serving when the remote embedding model’s vector size is unknown', async () => {
    const { code, stderr } = await runMain({
      OPENAI_EMBEDDING_MODEL: 'mxbai-embed-large',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(
      /^Invalid configuration: EMBEDDING_DIMENSIONS is required for embedding model "mxbai-embed-large"/,
    );
  });

  it('refuses an api or worker role on the embedded database, saying why', async () => {
    const { code, stderr } = await runMain({ ROLE: 'worker' });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'Invalid configuration: ROLE worker needs PostgreSQL (DATABASE_URL): with the embedded SQLite database one process does everything, ROLE=all (got "worker")',
    );
  });

  it('stops with one line on a database a newer release migrated', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-start-'));
    dirs.push(dataDir);
    const database = openDatabase({ dataDir, poolSize: 1 });
    await migrateToLatest(database);
    await sql`insert into schema_migrations (name, timestamp) values ('9999-from-the-future', 'x')`.execute(
      database.db,
    );
    await database.close();
    const { code, stderr } = await runMain({ DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'This database was migrated by a newer release of Linkwise (9999-from-the-future): run that release or a newer one.',
    );
  });

  it('stops with one line, without the password, when the database cannot be reached', async () => {
    // Nothing listens on the discard port.
    const { code, stderr } = await runMain({ DATABASE_URL: 'postgres://linkwise:hunter2secret@127.0.0.1:9/linkwise' });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'Cannot reach the database of DATABASE_URL (postgresql://127.0.0.1:9/linkwise): connection refused. Check the address and that PostgreSQL is running there.',
    );
  });

  it('stops with one line when DATA_DIR is not a folder it can write', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'linkwise-start-'));
    dirs.push(dir);
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    const { code, stderr } = await runMain({ DATA_DIR: file });
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(
      new RegExp(`^DATA_DIR \\(${file}\\) must be a folder this process can write: [^\\n]+$`),
    );
  });

  it('stops with one line when PORT is taken', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-start-'));
    dirs.push(dataDir);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const { code, stderr } = await runMain({ PORT: String(port), DATA_DIR: dataDir });
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(
        `PORT ${port} on 127.0.0.1 is already in use: stop what listens there or choose another PORT.`,
      );
    } finally {
      taken.close();
    }
  });

  it('gives up on a database address that accepts connections but never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const url = `postgres://linkwise:hunter2secret@127.0.0.1:${port}/linkwise`;
      const error = await checkDatabaseReachable(url, 300).catch((e: unknown) => e);
      expect(
        databaseProblem(error, {
          engine: 'postgres',
          database: `postgresql://127.0.0.1:${port}/linkwise`,
          dataDir: '',
        }),
      ).toBe(
        `Cannot reach the database of DATABASE_URL (postgresql://127.0.0.1:${port}/linkwise): no answer. Check the address and that PostgreSQL is running there.`,
      );
    } finally {
      sockets.forEach((s) => s.destroy());
      silent.close();
    }
  });

  it('creates the SQLite file, serves, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-start-'));
    dirs.push(dataDir);
    const { code, stdout } = await runMain({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' }, /Linkwise .* on http/);
    expect(stdout).toMatch(/sqlite:.*linkwise\.db, role all, billing/);
    expect(stdout).toMatch(/shutting down/);
    expect(code).toBe(0);
  });
});

describe.each(engines().filter((e) => e === 'postgres'))('migrations on %s', () => {
  it('two instances starting together migrate once', async () => {
    const target = await createTestDatabase();
    try {
      const a = openDatabase({ databaseUrl: target.url, dataDir: '', poolSize: 2 });
      const b = openDatabase({ databaseUrl: target.url, dataDir: '', poolSize: 2 });
      const [ra, rb] = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
      // Exactly one of them applied the migrations; the other found nothing left to do.
      expect([ra.length, rb.length].sort()).toEqual([0, migrationNames.length]);
      await Promise.all([a.close(), b.close()]);
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      const rows = await client.query('select name from schema_migrations');
      await client.end();
      expect(rows.rows.map((r: { name: string }) => r.name)).toEqual(migrationNames);
    } finally {
      await target.drop();
    }
  });
});

describe.each(engines().filter((e) => e === 'postgres'))('a start-up waiting on the migration on %s', () => {
  it('says once why it waits, and nothing when the migration is quick', async () => {
    const target = await createTestDatabase();
    const config = { DATABASE_URL: target.url, dataDir: '' };
    try {
      const first = await openMigrated(config, 1);
      await first.database.close();
      // Another connection holds the migrations' table, as an instance migrating it does.
      const holder = new pg.Client({ connectionString: target.url });
      await holder.connect();
      await holder.query('begin');
      await holder.query('lock table schema_migrations in access exclusive mode');
      const lines: string[] = [];
      const opening = openMigrated(config, 1, { notify: (line) => lines.push(line), patienceMs: 200 });
      await vi.waitFor(() => expect(lines).toEqual([MIGRATION_WAIT]), { timeout: 10_000 });
      await holder.query('commit');
      await holder.end();
      const { database, applied } = await opening;
      await database.close();
      expect(applied).toEqual([]);
      expect(lines).toEqual([MIGRATION_WAIT]);

      const quiet: string[] = [];
      const again = await openMigrated(config, 1, { notify: (line) => quiet.push(line) });
      await again.database.close();
      expect(quiet).toEqual([]);
    } finally {
      await target.drop();
    }
  });
});

describe.each(engines().filter((e) => e === 'postgres'))('shutdown on %s', (engine) => {
  it('closes the database only after running handlers finish, even when their client left', async () => {
    const server = await startServer(engine);
    const { api, userId } = await server.signUp('drain');
    const url = server.config.DATABASE_URL ?? '';
    // Hold the user's row so both creates block inside their handlers (LinkRepository.lockUser).
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select id from users where id = $1 for update', [userId]);

    const kept = api.createLink({ body: { url: 'https://drain.example/kept' } });
    const gone = new AbortController();
    const abandoned = api
      .createLink({ body: { url: 'https://drain.example/abandoned' } }, { signal: gone.signal })
      .catch((error: unknown) => error);
    // Activity statistics are a snapshot per transaction: look from outside the blocking one.
    const observer = new pg.Client({ connectionString: url });
    await observer.connect();
    await waitFor(async () => {
      const { rows } = await observer.query<{ n: string }>(
        "select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
      );
      return Number(rows[0]?.n) === 2;
    });
    await observer.end();
    gone.abort();

    // What main.ts does on SIGTERM: stop the server, then close the database.
    let closedAt = 0;
    const closing = server.app.close().then(async () => {
      closedAt = Date.now();
      await server.database.close();
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(closedAt).toBe(0);
    const releasedAt = Date.now();
    await blocker.query('rollback');
    await closing;
    expect(closedAt).toBeGreaterThanOrEqual(releasedAt);
    expect((await kept).url).toBe('https://drain.example/kept');
    expect(await abandoned).toBeInstanceOf(Error);
    const { rows } = await blocker.query<{ url: string }>('select url from links where user_id = $1 order by url', [
      userId,
    ]);
    expect(rows.map((r) => r.url)).toEqual(['https://drain.example/abandoned', 'https://drain.example/kept']);
    await blocker.end();
    await server.close().catch(() => undefined);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
