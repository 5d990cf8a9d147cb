import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  Limits,
  createVault,
  decryptCredential,
  encryptCredential,
  type VaultKey,
  type VaultKeyMaterial,
} from '@linkwise/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { engines, failure, raw, startServer, type TestServer } from './harness.js';

const MASTER = 'vault master password 9f3k';
const SECRETS = {
  username: 'ada.lovelace.vault@example.com',
  password: 'Tr0ub4dor&3-vault-secret',
  note: 'backup codes in drawer',
};

describe.each(engines())('vault on %s', (engine) => {
  let server: TestServer;
  let material: VaultKeyMaterial;
  let vaultKey: VaultKey;

  beforeAll(async () => {
    server = await startServer(engine);
    ({ material, vaultKey } = await createVault(MASTER));
  });
  afterAll(() => server.close());

  it('starts empty, stores key material, and gives it back unchanged', async () => {
    const { api } = await server.signUp('vault');
    expect(await api.getVault()).toEqual({ data: null, updatedAt: null });
    const saved = await api.putVault({ body: { ...material, replaces: null } });
    expect(saved.data).toEqual(material);
    expect(await api.getVault()).toEqual({ data: material, updatedAt: saved.updatedAt });
  });

  it('never overwrites a vault silently: creating twice or replacing stale material answers 409', async () => {
    const { api } = await server.signUp('vault');
    await api.putVault({ body: { ...material, replaces: null } });
    // A second device that also thought the vault was new.
    const other = (await createVault('another master password')).material;
    const twice = await failure(api.putVault({ body: { ...other, replaces: null } }));
    expect([twice.status, twice.code]).toEqual([409, 'VAULT_CONFLICT']);
    expect((await api.getVault()).data).toEqual(material);
    // A master-password change names the material it re-wraps; a stale one is refused.
    const stale = await failure(api.putVault({ body: { ...other, replaces: other.wrappedKey } }));
    expect([stale.status, stale.code]).toEqual([409, 'VAULT_CONFLICT']);
    const changed = await api.putVault({ body: { ...other, replaces: material.wrappedKey } });
    expect(changed.data).toEqual(other);
    expect((await api.getVault()).data).toEqual(other);
    // After a reset, a change made from an old screen does not bring the vault back.
    await api.resetVault();
    const afterReset = await failure(api.putVault({ body: { ...material, replaces: other.wrappedKey } }));
    expect(afterReset.status).toBe(409);
    expect((await api.getVault()).data).toBeNull();
  });

  it("keeps each user's key material to themselves", async () => {
    const a = await server.signUp('vault');
    const b = await server.signUp('vault');
    await a.api.putVault({ body: { ...material, replaces: null } });
    expect((await b.api.getVault()).data).toBeNull();
  });

  it('refuses weak or malformed key material with a readable error', async () => {
    const { api } = await server.signUp('vault');
    const cases: unknown[] = [
      { ...material, kdf: { ...material.kdf, iterations: 100_000 } },
      { ...material, kdf: { ...material.kdf, hash: 'SHA-1' } },
      { ...material, salt: 'c2hvcnQ=' },
      { ...material, wrappedKey: 'not base64!' },
      { ...material, version: 2 },
      { ...material, password: MASTER, iv: undefined },
    ];
    for (const body of cases) {
      const error = await failure(api.putVault({ body: { ...(body as VaultKeyMaterial), replaces: null } }));
      expect(error.status).toBe(400);
      expect(error.code).toBe('VALIDATION_ERROR');
    }
    expect((await api.getVault()).data).toBeNull();
  });

  it('asks for a sign-in', async () => {
    expect((await raw(server, 'GET', '/api/vault')).status).toBe(401);
    expect((await raw(server, 'DELETE', '/api/vault')).status).toBe(401);
  });

  it('refuses a plaintext-shaped credential on a link', async () => {
    const { token } = await server.signUp('vault');
    const res = await raw(server, 'POST', '/api/links', {
      token,
      body: JSON.stringify({ url: 'https://plain.example', credentials: [{ id: 'c1', ...SECRETS }] }),
    });
    expect(res.status).toBe(400);
  });

  it('limits credentials per link and the size of each ciphertext', async () => {
    const { api, token, userId } = await server.signUp('vault');
    await api.putVault({ body: { ...material, replaces: null } });
    const link = await api.createLink({ body: { url: 'https://limits.example/login' } });
    const place = { userId, linkId: link.id };
    const many = await Promise.all(
      Array.from({ length: Limits.credentialsPerLink + 1 }, (_, i) =>
        encryptCredential(vaultKey, place, { id: `c${i}`, username: `u${i}`, password: `p${i}`, note: '' }),
      ),
    );
    const tooMany = await failure(api.updateLink({ params: { id: link.id }, body: { credentials: many } }));
    expect([tooMany.status, tooMany.code]).toEqual([400, 'VALIDATION_ERROR']);
    const atLimit = await api.updateLink({
      params: { id: link.id },
      body: { credentials: many.slice(0, Limits.credentialsPerLink) },
    });
    expect(atLimit.credentials).toHaveLength(Limits.credentialsPerLink);

    // A note of 12,000 characters still fits; one of 13,000 makes the ciphertext too large.
    const big = (n: number) =>
      encryptCredential(vaultKey, place, { id: 'big', username: 'u', password: 'p', note: 'n'.repeat(n) });
    const fits = await big(12_000);
    expect(fits.ciphertext.length).toBeLessThanOrEqual(Limits.credentialCiphertextMax);
    expect((await api.updateLink({ params: { id: link.id }, body: { credentials: [fits] } })).credentials).toEqual([
      fits,
    ]);
    const oversized = await big(13_000);
    expect(oversized.ciphertext.length).toBeGreaterThan(Limits.credentialCiphertextMax);
    const refused = await raw(server, 'PUT', `/api/links/${link.id}`, {
      token,
      body: JSON.stringify({ credentials: [oversized] }),
    });
    expect(refused.status).toBe(400);
    expect((await api.getLink({ params: { id: link.id } })).credentials).toEqual([fits]);
  });

  it('stores credentials as ciphertext only: not one byte of them in the database', async () => {
    const { api, userId } = await server.signUp('vault');
    await api.putVault({ body: { ...material, replaces: null } });
    const link = await api.createLink({ body: { url: 'https://bank.example/login' } });
    const place = { userId, linkId: link.id };
    const credentials = [
      await encryptCredential(vaultKey, place, { id: 'c1', ...SECRETS }),
      await encryptCredential(vaultKey, place, {
        id: 'c2',
        username: 'second-user-xyz',
        password: 'second-pass-xyz',
        note: '',
      }),
    ];
    const updated = await api.updateLink({ params: { id: link.id }, body: { credentials } });
    expect(updated.credentials).toEqual(credentials);
    const back = await api.getLink({ params: { id: link.id } });
    expect(await decryptCredential(vaultKey, place, back.credentials[0]!)).toEqual({ id: 'c1', ...SECRETS });

    const needles = [SECRETS.username, SECRETS.password, SECRETS.note, 'second-pass-xyz', MASTER];
    const haystack = await databaseBytes(server);
    expect(haystack.length).toBeGreaterThan(1000);
    for (const needle of needles) expect(haystack.includes(Buffer.from(needle))).toBe(false);
    // The ciphertext itself is there: the scan would have found stored text.
    expect(haystack.includes(Buffer.from(credentials[0]!.ciphertext))).toBe(true);
  });

  it('resets the vault: key material and every credential gone, links kept', async () => {
    const { api, userId } = await server.signUp('vault');
    await api.putVault({ body: { ...material, replaces: null } });
    const link = await api.createLink({ body: { url: 'https://reset.example' } });
    const place = { userId, linkId: link.id };
    await api.updateLink({
      params: { id: link.id },
      body: { credentials: [await encryptCredential(vaultKey, place, { id: 'c1', ...SECRETS })] },
    });
    expect((await api.listLinks({ query: { hasCredentials: 'true' } })).total).toBe(1);
    await api.resetVault();
    expect((await api.getVault()).data).toBeNull();
    expect((await api.getLink({ params: { id: link.id } })).credentials).toEqual([]);
    expect((await api.listLinks({ query: { hasCredentials: 'true' } })).total).toBe(0);
    expect((await api.listLinks()).total).toBe(1);

    // A device that still holds the old key cannot bring back credentials nobody can open.
    const stale = await encryptCredential(vaultKey, place, { id: 'c2', ...SECRETS });
    for (const attempt of [
      () => api.updateLink({ params: { id: link.id }, body: { credentials: [stale] } }),
      () => api.createLink({ body: { url: 'https://reset.example/2', credentials: [stale] } }),
    ]) {
      const e = await failure(attempt());
      expect([e.status, e.code, e.details]).toEqual([
        400,
        'VALIDATION_ERROR',
        {
          fields: { credentials: 'Your vault was reset or is not set up. Set it up again, then add the credentials.' },
        },
      ]);
    }
    expect((await api.listLinks({ query: { hasCredentials: 'true' } })).total).toBe(0);
    expect((await api.updateLink({ params: { id: link.id }, body: { credentials: [] } })).credentials).toEqual([]);
  });
});

describe('vault secrets and the server log', () => {
  it('logs no credential, ciphertext or key material, even at trace level and on refused requests', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-vault-log-'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'trace', JOBS_ENABLED: 'false' });
    const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 1 });
    await migrateToLatest(database);
    const options = loggerOptions('trace');
    if (typeof options !== 'object') throw new Error('expected logger options');
    const app = await buildApp({ config, database, logger: { ...options, stream } });
    try {
      const { material, vaultKey } = await createVault(MASTER);
      const send = (method: 'POST' | 'PUT', url: string, token: string | undefined, payload: unknown) =>
        app.inject({
          method,
          url,
          headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
          payload: JSON.stringify(payload),
        });
      const registered = await send('POST', '/api/auth/register', undefined, {
        email: 'logged@example.com',
        username: 'logged',
        password: 'correct horse',
      });
      const { token, user } = registered.json<{ token: string; user: { id: string } }>();
      expect((await send('PUT', '/api/vault', token, { ...material, replaces: null })).statusCode).toBe(200);
      const created = await send('POST', '/api/links', token, { url: 'https://logged.example/' });
      const linkId = created.json<{ id: string }>().id;
      const credential = await encryptCredential(vaultKey, { userId: user.id, linkId }, { id: 'c1', ...SECRETS });
      expect((await send('PUT', `/api/links/${linkId}`, token, { credentials: [credential] })).statusCode).toBe(200);
      // Refused bodies are where a careless error handler would echo the input back into the log.
      const plain = await send('PUT', `/api/links/${linkId}`, token, { credentials: [{ id: 'p', ...SECRETS }] });
      expect(plain.statusCode).toBe(400);
      const weak = await send('PUT', '/api/vault', token, { ...material, kdf: { ...material.kdf, iterations: 1 } });
      expect(weak.statusCode).toBe(400);

      const log = lines.join('');
      expect(log).toContain(`/api/links/${linkId}`);
      const needles = [
        SECRETS.username,
        SECRETS.password,
        SECRETS.note,
        MASTER,
        credential.ciphertext,
        material.wrappedKey,
        material.salt,
        token,
      ];
      for (const needle of needles) expect(log.includes(needle), needle).toBe(false);
    } finally {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Every byte the database holds for the app: the SQLite files, or every table's rows as text. */
async function databaseBytes(server: TestServer): Promise<Buffer> {
  if (server.engine === 'sqlite') {
    await sql`pragma wal_checkpoint(PASSIVE)`.execute(server.database.db);
    const dir = server.config.dataDir;
    return Buffer.concat(
      readdirSync(dir)
        .filter((f) => f.startsWith('linkwise.db'))
        .map((f) => readFileSync(path.join(dir, f))),
    );
  }
  const tables = await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public'`.execute(
    server.database.db,
  );
  const parts: string[] = [];
  for (const { tablename } of tables.rows) {
    const rows = await sql`select * from ${sql.table(tablename)}`.execute(server.database.db);
    parts.push(JSON.stringify(rows.rows));
  }
  return Buffer.from(parts.join('\n'));
}
