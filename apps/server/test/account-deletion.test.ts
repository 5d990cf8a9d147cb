import { createVault } from '@linkwise/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeletedAccount } from '../src/modules/auth/account.service.js';
import { totpCode } from '../src/modules/auth/totp.js';
import { sha256 } from '../src/lib/ids.js';
import { engines, failure, startServer, upgrade, type TestServer } from './harness.js';

const PASSWORD = 'correct horse';

/** Every table the database holds, read from its catalog (so tables added later are scanned too). */
async function everyTable(server: TestServer): Promise<string[]> {
  const { db } = server.database;
  if (server.engine === 'sqlite') {
    const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    return rows.rows.map((r) => r.name);
  }
  const rows = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Each table's rows as text (binary columns as latin1), for finding any trace of a value. */
async function dump(server: TestServer): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const table of await everyTable(server)) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(server.database.db);
    out.set(
      table,
      rows.rows
        .map((row) =>
          Object.values(row)
            .map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : String(v)))
            .join('\u0001'),
        )
        .join('\n'),
    );
  }
  return out;
}

describe.each(engines())('account deletion on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, { BILLING: 'simulated' });
  });
  afterAll(() => server.close());

  /** A user with something in every feature: links, tags, credentials, vault, 2FA, tokens, a plan, jobs. */
  async function populated(name: string) {
    const user = await server.signUp(name);
    const marker = `marker${name}${Math.random().toString(36).slice(2, 8)}`;
    const { material } = await createVault('master password 1');
    await user.api.putVault({ body: { ...material, replaces: null } });
    const links = [];
    for (let i = 0; i < 3; i++) {
      links.push(
        await user.api.createLink({
          body: {
            url: `https://${marker}.example/${i}`,
            title: `${marker} title ${i}`,
            notes: `${marker} notes`,
            tags: [`${marker}tag`, 'shared'],
            category: `${marker}cat`,
            credentials: [{ id: `c${i}`, iv: 'bm9uY2Utbm9uY2U=', ciphertext: `Y2lwaGVydGV4dC0${i}`, v: 1 }],
          },
        }),
      );
    }
    await user.api.reanalyzeLink({ params: { id: links[0]!.id } }).catch(() => undefined);
    await upgrade(server, user.api);
    await user.api.createApiToken({ body: { name: `${marker} script`, scope: 'read' } });
    const setup = await user.api.setupTwoFactor();
    await user.api.enableTwoFactor({ body: { code: totpCode(setup.secret, server.clock.now()) } });
    await failure(server.api().login({ body: { email: user.email, password: 'wrong password' } }));
    return { ...user, marker, links, secret: setup.secret };
  }

  it('needs the password and, with 2FA, a code; then leaves nothing of the user in any table', async () => {
    const gone = await populated('gone');
    const kept = await populated('kept');
    const traces = (text: string) =>
      [gone.userId, gone.email, gone.marker, sha256(`sign-in:${gone.email}`), ...gone.links.map((l) => l.id)].filter(
        (needle) => text.includes(needle),
      );

    const before = await dump(server);
    const holding = [...before].filter(([, text]) => traces(text).length > 0).map(([table]) => table);
    // The scan sees the user where their data lives (proof it would see leftovers).
    expect(holding).toEqual(
      expect.arrayContaining([
        'users',
        'auth_tokens',
        'links',
        'tags',
        'credentials',
        'vaults',
        'subscriptions',
        'recovery_codes',
      ]),
    );

    expect((await failure(gone.api.deleteAccount({ body: { password: 'not my password' } }))).code).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await failure(gone.api.deleteAccount({ body: { password: PASSWORD } }))).code).toBe('TOTP_REQUIRED');
    expect((await failure(gone.api.deleteAccount({ body: { password: PASSWORD, code: '000000' } }))).code).toBe(
      'TOTP_INVALID',
    );
    server.clock.advance(30_000);
    await gone.api.deleteAccount({ body: { password: PASSWORD, code: totpCode(gone.secret, server.clock.now()) } });

    const after = await dump(server);
    const left = [...after].flatMap(([table, text]) => traces(text).map((needle) => `${table}: ${needle}`));
    expect(left).toEqual([]);
    // The other user is untouched.
    expect([...after].some(([, text]) => text.includes(kept.marker))).toBe(true);
    expect((await kept.api.listLinks({})).data).toHaveLength(3);
    expect((await failure(gone.api.me())).code).toBe('UNAUTHENTICATED');
    expect((await failure(server.api().login({ body: { email: gone.email, password: PASSWORD } }))).code).toBe(
      'INVALID_CREDENTIALS',
    );
    // The email is free again.
    await server.api().register({ body: { email: gone.email, username: `again${gone.marker}`, password: PASSWORD } });
  });

  it('runs the clean-up steps outside the database with what they need, and a failing one does not undo it', async () => {
    const cleaned: DeletedAccount[] = [];
    const stepped = await startServer(
      engine,
      { BILLING: 'simulated' },
      {
        onAccountDeleted: [
          () => Promise.reject(new Error('storage offline')),
          (account) => {
            cleaned.push(account);
            return Promise.resolve();
          },
        ],
      },
    );
    const server = stepped;
    const user = await server.signUp('steps');
    await upgrade(server, user.api);
    await user.api.deleteAccount({ body: { password: PASSWORD } });
    expect(cleaned).toEqual([
      {
        userId: user.userId,
        email: user.email,
        username: expect.any(String) as string,
        providerCustomerId: expect.any(String) as string,
      },
    ]);
    expect((await failure(user.api.me())).code).toBe('UNAUTHENTICATED');
    await stepped.close();
  });
});
