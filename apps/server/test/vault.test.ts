import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  createVault,
  decryptCredential,
  encryptCredential,
  type VaultKey,
  type VaultKeyMaterial,
} from '@linkwise/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const saved = await api.putVault({ body: material });
    expect(saved.data).toEqual(material);
    expect(await api.getVault()).toEqual({ data: material, updatedAt: saved.updatedAt });
  });

  it("keeps each user's key material to themselves", async () => {
    const a = await server.signUp('vault');
    const b = await server.signUp('vault');
    await a.api.putVault({ body: material });
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
      const error = await failure(api.putVault({ body: body as VaultKeyMaterial }));
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

  it('stores credentials as ciphertext only: not one byte of them in the database', async () => {
    const { api, userId } = await server.signUp('vault');
    await api.putVault({ body: material });
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
    await api.putVault({ body: material });
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
