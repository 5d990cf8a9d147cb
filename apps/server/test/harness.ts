import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { ApiError, createApiClient, type ApiClient, type Link, type LinkCreateInput } from '@linkwise/contract';
import type { FastifyInstance } from 'fastify';
import { expect, inject } from 'vitest';
import { buildApp, loggerOptions, type AppOptions } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database, type Engine } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import type { Clock } from '../src/lib/clock.js';
import { createTestDatabase } from './pg.js';

/** The engines a suite runs on; PostgreSQL only when global setup found it (CI requires it). */
export function engines(): Engine[] {
  return inject('postgres') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A clock tests can move forward. */
export class TestClock implements Clock {
  constructor(public current = Date.parse('2026-11-22T12:00:00Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestServer {
  engine: Engine;
  url: string;
  config: Config;
  app: FastifyInstance;
  database: Database;
  clock: TestClock;
  /** Statements executed so far (for query-count assertions). */
  queries: () => number;
  /** The SQL of the statements executed since `from` (a `queries()` count), for asserting which ran. */
  statements: (from?: number) => string[];
  /** A typed client, signed in with `token` when given. */
  api: (token?: string) => ApiClient;
  /** Registers a fresh user and returns a client signed in as them. */
  signUp: (name?: string) => Promise<{ api: ApiClient; token: string; userId: string; email: string }>;
  /**
   * Stops the app and starts a new one on the same port, database and clock with `env` changed
   * (a redeploy with other settings); `app` and `config` then name the new one.
   */
  restart: (env: Record<string, string>) => Promise<void>;
  close: () => Promise<void>;
}

let counter = 0;

/** A free loopback port, so APP_URL (used in checkout links) can name the real address. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the real server on a free loopback port over a fresh, migrated database. */
export async function startServer(
  engine: Engine,
  env: Record<string, string> = {},
  /** Hooks a suite wires into the app (e.g. account clean-up steps). */
  appOptions: Pick<AppOptions, 'onAccountDeleted'> = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-test-'));
  const pg = engine === 'postgres' ? await createTestDatabase() : undefined;
  let port = await freePort();
  const configFor = (overrides: Record<string, string>) =>
    loadConfig({
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      RATE_LIMIT_SEARCH_PER_MINUTE: '100000',
      // Suites that test background analysis turn the job worker on; others must not fetch their URLs.
      JOBS_ENABLED: 'false',
      // No test reaches for the public hub; suites of the offline model point MODELS_DIR at it.
      MODEL_DOWNLOAD: 'false',
      ...(pg && { DATABASE_URL: pg.url }),
      ...overrides,
    });
  let config = configFor(env);
  let queryCount = 0;
  const executed: string[] = [];
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: 4,
    onQuery: (event) => {
      queryCount++;
      executed.push(event.query.sql);
    },
  });
  await migrateToLatest(database);
  const clock = new TestClock();
  const boot = async (bootConfig: Config) => {
    const app = await buildApp({ config: bootConfig, database, clock, ...appOptions });
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await app.close();
      throw error;
    }
    return app;
  };
  // A port found free can be taken before the app listens on it (an outgoing connection's local
  // port, another suite's server): a new port and a new config, a few times.
  let app: FastifyInstance | undefined;
  for (let attempt = 1; !app; attempt++) {
    try {
      app = await boot(config);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
      port = await freePort();
      config = configFor(env);
    }
  }
  const url = config.appUrl;
  const api = (token?: string) => createApiClient({ baseUrl: url, getToken: () => token });
  const server: TestServer = {
    engine,
    url,
    config,
    app,
    database,
    clock,
    queries: () => queryCount,
    statements: (from = 0) => executed.slice(from),
    api,
    async signUp(name = 'user') {
      counter += 1;
      const email = `${name}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const { token, user } = await api().register({
        body: {
          email,
          username: `${name}${counter}${Math.random().toString(36).slice(2, 6)}`,
          password: 'correct horse',
        },
      });
      return { api: api(token), token, userId: user.id, email };
    },
    async restart(changes) {
      await server.app.close();
      server.config = configFor({ ...env, ...changes });
      server.app = await boot(server.config);
    },
    async close() {
      await server.app.close();
      await database.close();
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Raw HTTP for what the typed client cannot send (malformed JSON, huge bodies, odd headers). */
export async function raw(
  server: TestServer,
  method: string,
  urlPath: string,
  init: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; json: () => unknown; text: string }> {
  const response = await fetch(`${server.url}${urlPath}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...init.headers,
    },
    body: init.body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as unknown };
}

/** Awaits a call that must fail and returns its ApiError (status, code, message, details). */
export async function failure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** The link once its analysis has finished (done or failed); a minute and a half at most. */
export async function settled(server: TestServer, token: string, id: string): Promise<Link> {
  const api = server.api(token);
  for (let i = 0; i < 900; i++) {
    const link = await api.getLink({ params: { id } });
    if (link.analysisStatus !== 'pending') return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('analysis did not finish');
}

/** Saves links one second apart, so creation order is the order given. */
export async function seed(server: TestServer, api: ApiClient, links: LinkCreateInput[]): Promise<Link[]> {
  const saved: Link[] = [];
  for (const body of links) {
    server.clock.advance(1000);
    saved.push(await api.createLink({ body }));
  }
  return saved;
}

/** Completes the simulated checkout the way a browser does: ask for a checkout page, then press Pay. */
export async function upgrade(
  server: TestServer,
  api: ApiClient,
  plan: 'monthly' | 'yearly' = 'monthly',
): Promise<void> {
  const { url } = await api.createCheckout({ body: { plan } });
  expect(url.startsWith(`${server.url}/billing/simulated/checkout/cs_`)).toBe(true);
  const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  const sessionId = url.split('/').pop() ?? '';
  expect(paid.headers.get('location')).toBe(
    `${server.url}/subscription/success?session_id=${encodeURIComponent(sessionId)}`,
  );
}

/** Vault key material (opaque to the server): credentials are taken only from a user who has a vault. */
export const testVaultMaterial = {
  version: 1 as const,
  kdf: { name: 'PBKDF2' as const, hash: 'SHA-256' as const, iterations: 600_000 },
  salt: Buffer.alloc(16, 1).toString('base64'),
  iv: Buffer.alloc(12, 2).toString('base64'),
  wrappedKey: Buffer.alloc(48, 3).toString('base64'),
};

/** Gives a user a vault, as the web app does before it lets credentials be added. */
export async function setUpVault(api: ApiClient): Promise<void> {
  await api.putVault({ body: { ...testVaultMaterial, replaces: null } });
}

/**
 * The app over an SQLite database in `dataDir` (a fresh folder when not given), not listening, with
 * every log line it writes at `level` kept in `lines` (for what start-up says, and what it must not).
 */
export async function loggedApp(env: Record<string, string>, dataDir?: string, level = 'info') {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'linkwise-logged-'));
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const config = loadConfig({ DATA_DIR: dir, JOBS_ENABLED: 'false', MODEL_DOWNLOAD: 'false', ...env });
  const database = openDatabase({ dataDir: dir, poolSize: 1 });
  await migrateToLatest(database);
  const options = loggerOptions(level);
  if (typeof options !== 'object') throw new Error('expected logger options');
  const app = await buildApp({ config, database, logger: { ...options, stream } });
  /** The first line containing `text`, waited for up to 5 s. */
  const waitForLine = async (text: string) => {
    for (let i = 0; i < 100; i++) {
      const line = lines.find((l) => l.includes(text));
      if (line) return JSON.parse(line) as { level: number; msg: string; reason?: string };
      await new Promise((r) => setTimeout(r, 50));
    }
    return undefined;
  };
  return {
    app,
    database,
    lines,
    waitForLine,
    close: async () => {
      await app.close();
      await database.close();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
