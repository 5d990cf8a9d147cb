import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccountMessages, type ApiClient } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../src/modules/auth/secret-box.js';
import { totpCode } from '../src/modules/auth/totp.js';
import { engines, failure, loggedApp, raw, startServer, type TestServer } from './harness.js';

const PASSWORD = 'correct horse';

describe.each(engines())('account security on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  const signIn = (email: string, password = PASSWORD, totp?: string) =>
    server.api().login({ body: { email, password, ...(totp !== undefined && { totpCode: totp }) } });

  describe('sessions', () => {
    it('lists every signed-in device with the current one marked, and revokes one or all others', async () => {
      const user = await server.signUp('sessions');
      const second = await signIn(user.email);
      const ext = await server.api().extensionLogin({ body: { email: user.email, password: PASSWORD } });
      const { data } = await user.api.listSessions();
      expect(data.map((s) => [s.kind, s.current])).toEqual(
        expect.arrayContaining([
          ['web', true],
          ['web', false],
          ['extension', false],
        ]),
      );
      expect(data).toHaveLength(3);
      expect(data[0]).toMatchObject({
        name: expect.any(String) as string,
        createdAt: expect.any(String) as string,
        lastUsedAt: expect.any(String) as string,
      });

      const extSession = data.find((s) => s.kind === 'extension')!;
      await user.api.revokeSession({ params: { id: extSession.id } });
      expect((await failure(server.api(ext.token).me())).code).toBe('UNAUTHENTICATED');
      expect((await server.api(second.token).me()).user.id).toBe(user.userId);

      await user.api.revokeOtherSessions();
      expect((await failure(server.api(second.token).me())).code).toBe('UNAUTHENTICATED');
      expect((await user.api.listSessions()).data).toHaveLength(1);
    });

    it("answers 404 for another user's session and leaves it alone", async () => {
      const alice = await server.signUp('alice');
      const bob = await server.signUp('bob');
      const bobSession = (await bob.api.listSessions()).data[0]!;
      const error = await failure(alice.api.revokeSession({ params: { id: bobSession.id } }));
      expect([error.status, error.code]).toEqual([404, 'NOT_FOUND']);
      expect((await bob.api.me()).user.id).toBe(bob.userId);
    });
  });

  describe('password change', () => {
    it('needs the current password, refuses common passwords, and signs out the other devices', async () => {
      const user = await server.signUp('pwchange');
      const other = await signIn(user.email);
      const wrong = await failure(
        user.api.changePassword({ body: { currentPassword: 'nope-nope', newPassword: 'brand new pass' } }),
      );
      expect([wrong.status, wrong.code, wrong.details]).toEqual([
        401,
        'INVALID_CREDENTIALS',
        { fields: { currentPassword: AccountMessages.wrongPassword } },
      ]);
      const common = await failure(
        user.api.changePassword({ body: { currentPassword: PASSWORD, newPassword: 'Password1' } }),
      );
      expect([common.status, common.message]).toEqual([400, AccountMessages.commonPassword]);
      const short = await failure(user.api.changePassword({ body: { currentPassword: PASSWORD, newPassword: 'abc' } }));
      expect(short.message).toBe('Password must be at least 6 characters');

      await user.api.changePassword({ body: { currentPassword: PASSWORD, newPassword: 'brand new pass' } });
      expect((await user.api.me()).user.id).toBe(user.userId);
      expect((await failure(server.api(other.token).me())).code).toBe('UNAUTHENTICATED');
      expect((await failure(signIn(user.email))).code).toBe('INVALID_CREDENTIALS');
      expect((await signIn(user.email, 'brand new pass')).user.id).toBe(user.userId);
    });

    it('refuses the most common passwords at registration too', async () => {
      const error = await failure(
        server.api().register({ body: { email: 'common@example.com', username: 'commonpw', password: 'iloveyou' } }),
      );
      expect([error.status, error.code, error.details]).toEqual([
        400,
        'VALIDATION_ERROR',
        { fields: { password: AccountMessages.commonPassword } },
      ]);
    });
  });

  describe('sign-in throttle per account', () => {
    it('pauses an account after repeated failures from any address, answering alike for unknown emails', async () => {
      const user = await server.signUp('throttle');
      const answers = async (email: string) => {
        const seen: string[] = [];
        for (let i = 0; i < 11; i++) seen.push((await failure(signIn(email, `wrong-${i}`))).code);
        return seen;
      };
      const known = await answers(user.email);
      const unknown = await answers('nobody-here@example.com');
      const expected = [...Array<string>(10).fill('INVALID_CREDENTIALS'), 'RATE_LIMITED'];
      expect(known).toEqual(expected);
      expect(unknown).toEqual(expected);
      const paused = await failure(signIn(user.email));
      expect([paused.status, paused.message]).toEqual([429, AccountMessages.tooManySignIns]);
      const headers = await raw(server, 'POST', '/api/auth/login', {
        body: JSON.stringify({ email: user.email, password: PASSWORD }),
      });
      expect(headers.status).toBe(429);
      // The pause lasts until 15 minutes after the first failure of the window.
      const retryAfter = Number(headers.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      server.clock.advance(16 * 60_000);
      expect((await signIn(user.email)).user.id).toBe(user.userId);
    });
  });

  describe('API tokens', () => {
    let user: Awaited<ReturnType<TestServer['signUp']>>;
    beforeAll(async () => {
      user = await server.signUp('tokens');
      await user.api.createLink({ body: { url: 'https://example.com/t', title: 'T' } });
    });

    it('are shown once, work as Bearer within their scope, and never reach the account', async () => {
      const read = await user.api.createApiToken({ body: { name: 'Reader', scope: 'read' } });
      const write = await user.api.createApiToken({ body: { name: 'Writer', scope: 'write', expiresInDays: 30 } });
      expect(read.token).toMatch(/^lw_/);
      expect(read.expiresAt).toBeNull();
      expect(Date.parse(write.expiresAt!) - server.clock.now()).toBe(30 * 86_400_000);
      const listed = (await user.api.listApiTokens()).data;
      expect(listed.map((t) => [t.name, t.scope])).toEqual(
        expect.arrayContaining([
          ['Reader', 'read'],
          ['Writer', 'write'],
        ]),
      );
      expect(JSON.stringify(listed)).not.toContain(read.token);
      expect((await user.api.listSessions()).data.filter((s) => s.kind === 'api')).toHaveLength(2);

      const reader = server.api(read.token);
      expect((await reader.listLinks({})).data).toHaveLength(1);
      const denied = await failure(reader.createLink({ body: { url: 'https://example.com/no', title: 'No' } }));
      expect([denied.status, denied.code, denied.message]).toEqual([403, 'TOKEN_SCOPE', AccountMessages.readOnlyToken]);
      const writer = server.api(write.token);
      await writer.createLink({ body: { url: 'https://example.com/yes', title: 'Yes' } });
      for (const call of [writer.listSessions(), writer.createApiToken({ body: { name: 'x', scope: 'write' } })]) {
        const error = await failure(call);
        expect([error.status, error.code]).toEqual([403, 'TOKEN_SCOPE']);
      }
      const header = await raw(server, 'GET', '/api/links', { headers: { authorization: `Bearer ${read.token}` } });
      expect(header.status).toBe(200);
      // The scheme is case-insensitive (RFC 9110 §11.1).
      const lower = await raw(server, 'GET', '/api/links', { headers: { authorization: `bearer ${read.token}` } });
      expect(lower.status).toBe(200);

      // A script's token reads the vault and the plan but cannot wipe the vault or touch billing.
      expect((await writer.getVault()).data).toBeNull();
      expect((await writer.subscriptionStatus()).plan).toBeNull();
      for (const call of [() => writer.resetVault(), () => writer.createPortal(), () => writer.cancelSubscription()]) {
        const error = await failure(call());
        expect([error.status, error.code, error.message]).toEqual([
          403,
          'TOKEN_SCOPE',
          AccountMessages.tokenCannotManageAccount,
        ]);
      }
    });

    it('let a read-only token sign itself out', async () => {
      const read = await user.api.createApiToken({ body: { name: 'Leaving', scope: 'read' } });
      const reader = server.api(read.token);
      await reader.logout();
      expect((await failure(reader.listLinks({}))).code).toBe('UNAUTHENTICATED');
    });

    it('stop working when they expire or are revoked, and another user cannot revoke them', async () => {
      const short = await user.api.createApiToken({ body: { name: 'Short', scope: 'read', expiresInDays: 1 } });
      const other = await server.signUp('intruder');
      expect((await failure(other.api.revokeApiToken({ params: { id: short.id } }))).status).toBe(404);
      expect((await server.api(short.token).listLinks({})).data.length).toBeGreaterThan(0);
      server.clock.advance(86_400_000);
      expect((await failure(server.api(short.token).listLinks({}))).code).toBe('UNAUTHENTICATED');

      const revoked = await user.api.createApiToken({ body: { name: 'Gone', scope: 'write' } });
      await user.api.revokeApiToken({ params: { id: revoked.id } });
      expect((await failure(server.api(revoked.token).listLinks({}))).code).toBe('UNAUTHENTICATED');
      expect((await user.api.listApiTokens()).data.map((t) => t.name)).not.toContain('Gone');
    });

    it('validates the name, scope and expiry', async () => {
      for (const body of [
        { name: '', scope: 'read' },
        { name: 'x', scope: 'admin' },
        { name: 'x', scope: 'read', expiresInDays: 0 },
        { name: 'x', scope: 'read', expiresInDays: 1.5 },
      ]) {
        const res = await raw(server, 'POST', '/api/account/tokens', { token: user.token, body: JSON.stringify(body) });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
    });

    it('are in the OpenAPI security scheme', async () => {
      const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
        components: { securitySchemes: { bearer: { scheme: string; description: string } } };
        paths: Record<string, Record<string, { security?: unknown }>>;
      };
      expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
      expect(doc.components.securitySchemes.bearer.description).toContain('API token');
      expect(doc.paths['/api/account/tokens']?.post?.security).toEqual([{ bearer: [] }]);
    });
  });

  describe('two-factor sign-in', () => {
    it('enables with a code, then asks for one at sign-in, accepting ±1 step and never the same code twice', async () => {
      const user = await server.signUp('totp');
      expect(await user.api.securityOverview()).toEqual({ twoFactorEnabled: false, recoveryCodesLeft: 0 });
      const setup = await user.api.setupTwoFactor();
      expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(setup.otpauthUrl).toContain(`secret=${setup.secret}`);
      expect(setup.otpauthUrl).toContain(encodeURIComponent(user.email));
      expect(setup.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(setup.qrCode.split(',')[1]!, 'base64').toString()).toContain('<svg');

      const wrong = await failure(user.api.enableTwoFactor({ body: { code: '000000' } }));
      expect(wrong.code).toBe('TOTP_INVALID');
      const { recoveryCodes } = await user.api.enableTwoFactor({
        body: { code: totpCode(setup.secret, server.clock.now()) },
      });
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      expect(await user.api.securityOverview()).toEqual({ twoFactorEnabled: true, recoveryCodesLeft: 10 });

      const required = await failure(signIn(user.email));
      expect([required.status, required.code]).toEqual([401, 'TOTP_REQUIRED']);
      // The code used to enable cannot sign in: that step is spent.
      const replayEnable = await failure(signIn(user.email, PASSWORD, totpCode(setup.secret, server.clock.now())));
      expect(replayEnable.code).toBe('TOTP_INVALID');

      server.clock.advance(60_000);
      const now = server.clock.now();
      // One step behind (a slow phone) is accepted; then a code from before it is not.
      const behind = totpCode(setup.secret, now - 30_000);
      expect((await signIn(user.email, PASSWORD, behind)).user.id).toBe(user.userId);
      expect((await failure(signIn(user.email, PASSWORD, behind))).code).toBe('TOTP_INVALID');
      expect((await signIn(user.email, PASSWORD, totpCode(setup.secret, now))).user.id).toBe(user.userId);
      const ahead = totpCode(setup.secret, now + 30_000);
      expect((await signIn(user.email, PASSWORD, ahead)).user.id).toBe(user.userId);
      expect((await failure(signIn(user.email, PASSWORD, ahead))).code).toBe('TOTP_INVALID');
      expect((await failure(signIn(user.email, PASSWORD, totpCode(setup.secret, now + 120_000)))).code).toBe(
        'TOTP_INVALID',
      );
      // A wrong password with a good code is still only a wrong password.
      server.clock.advance(90_000);
      const wrongPassword = await failure(signIn(user.email, 'wrong pass', totpCode(setup.secret, server.clock.now())));
      expect(wrongPassword.code).toBe('INVALID_CREDENTIALS');

      // Recovery codes sign in once each, in any case and spacing.
      const [first, second] = recoveryCodes;
      expect((await signIn(user.email, PASSWORD, first!.toUpperCase())).user.id).toBe(user.userId);
      expect((await failure(signIn(user.email, PASSWORD, first))).code).toBe('TOTP_INVALID');
      expect((await signIn(user.email, PASSWORD, second!.replace('-', ''))).user.id).toBe(user.userId);
      expect((await user.api.securityOverview()).recoveryCodesLeft).toBe(8);

      // Disabling needs the password and a code.
      server.clock.advance(30_000);
      const code = totpCode(setup.secret, server.clock.now());
      expect((await failure(user.api.disableTwoFactor({ body: { password: 'wrong pass', code } }))).code).toBe(
        'INVALID_CREDENTIALS',
      );
      expect((await failure(user.api.disableTwoFactor({ body: { password: PASSWORD, code: '123456' } }))).code).toBe(
        'TOTP_INVALID',
      );
      await user.api.disableTwoFactor({ body: { password: PASSWORD, code } });
      expect((await signIn(user.email)).user.id).toBe(user.userId);
      expect(await user.api.securityOverview()).toEqual({ twoFactorEnabled: false, recoveryCodesLeft: 0 });
    });

    it('stores the secret encrypted with the server key, never in clear', async () => {
      const user = await server.signUp('sealed');
      const setup = await user.api.setupTwoFactor();
      await user.api.enableTwoFactor({ body: { code: totpCode(setup.secret, server.clock.now()) } });
      const row = await server.database.db
        .selectFrom('users')
        .select(['totp_secret'])
        .where('id', '=', user.userId)
        .executeTakeFirstOrThrow();
      expect(row.totp_secret).toMatch(/^v1\./);
      expect(row.totp_secret).not.toContain(setup.secret);
      const codes = await server.database.db
        .selectFrom('recovery_codes')
        .select('code_hash')
        .where('user_id', '=', user.userId)
        .execute();
      expect(codes).toHaveLength(10);
    });
  });

  describe('api client helpers', () => {
    it('the contract names every account route', () => {
      const client: ApiClient = server.api();
      for (const name of [
        'listSessions',
        'changePassword',
        'setupTwoFactor',
        'createApiToken',
        'deleteAccount',
      ] as const) {
        expect(typeof client[name]).toBe('function');
      }
    });
  });
});

describe('a database whose two-factor secrets another server key sealed', () => {
  it('is logged at start-up with what to do, and a matching key says nothing', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'linkwise-key-'));
    const key = 'a'.repeat(64);
    try {
      const first = await loggedApp({ SECRET_KEY: key }, dataDir);
      const registered = await first.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
        payload: { email: 'key@example.com', username: 'key', password: 'correct horse' },
      });
      const { user } = registered.json<{ user: { id: string } }>();
      // Two-factor on, sealed as this server seals it.
      await first.database.db
        .updateTable('users')
        .set({ totp_secret: new SecretBox(key).seal('JBSWY3DPEHPK3PXP', user.id), totp_enabled_at: 1 })
        .where('id', '=', user.id)
        .execute();
      await first.close();

      const same = await loggedApp({ SECRET_KEY: key }, dataDir);
      // The check runs in the background: give it the time the other case needs to answer.
      await new Promise((r) => setTimeout(r, 500));
      expect(same.lines.join('')).not.toContain('Two-factor secrets');
      await same.close();

      const other = await loggedApp({ SECRET_KEY: 'b'.repeat(64) }, dataDir);
      const warning = await other.waitForLine(
        'Two-factor secrets in this database were sealed with another server key',
      );
      expect(warning?.level).toBe(40);
      expect(warning?.msg).toContain('npm run reset-password -- <email> --disable-2fa');
      await other.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
