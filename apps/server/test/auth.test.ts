import { Messages, UserSchema } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, raw, startServer, type TestServer } from './harness.js';

describe.each(engines())('accounts on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  it('registers, returns a token and the public user only', async () => {
    const res = await raw(server, 'POST', '/api/auth/register', {
      body: JSON.stringify({ email: '  New.Person@Example.com ', username: 'newperson', password: 'hunter22' }),
    });
    expect(res.status).toBe(201);
    const body = res.json() as { user: unknown; token: string };
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const user = UserSchema.strict().parse(body.user);
    expect(user).toMatchObject({
      email: 'new.person@example.com',
      username: 'newperson',
      subscriptionStatus: 'free',
      linkLimit: 30,
    });
    expect(res.text).not.toMatch(/hash|argon/i);
  });

  it('words validation failures exactly as the spec does', async () => {
    const e = await failure(server.api().register({ body: { email: 'nope', username: 'ab', password: '12345' } }));
    expect(e.status).toBe(400);
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.details).toEqual({
      fields: {
        email: Messages.invalidEmail,
        username: Messages.usernameTooShort,
        password: Messages.passwordTooShort,
      },
    });
    const missing = await raw(server, 'POST', '/api/auth/login', { body: '{}' });
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: { email: Messages.invalidEmail, password: Messages.passwordTooShort } },
    });
  });

  it('refuses a second account with the same email or username', async () => {
    await server.api().register({ body: { email: 'dup@example.com', username: 'dupuser', password: 'secret1' } });
    const email = await failure(
      server.api().register({ body: { email: 'DUP@example.com', username: 'other', password: 'secret1' } }),
    );
    expect([email.status, email.code]).toEqual([409, 'EMAIL_TAKEN']);
    const name = await failure(
      server.api().register({ body: { email: 'x@example.com', username: 'DupUser', password: 'secret1' } }),
    );
    expect([name.status, name.code]).toEqual([409, 'USERNAME_TAKEN']);
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    await server.api().register({ body: { email: 'login@example.com', username: 'loginuser', password: 'rightpass' } });
    const wrong = await raw(server, 'POST', '/api/auth/login', {
      body: JSON.stringify({ email: 'login@example.com', password: 'wrongpass' }),
    });
    const unknown = await raw(server, 'POST', '/api/auth/login', {
      body: JSON.stringify({ email: 'ghost@example.com', password: 'wrongpass' }),
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ error: Messages.invalidCredentials, code: 'INVALID_CREDENTIALS' });
    const ok = await server.api().login({ body: { email: 'LOGIN@example.com', password: 'rightpass' } });
    expect(ok.user.username).toBe('loginuser');
  });

  it('issues one token per device and revokes only the one that logs out', async () => {
    await server.api().register({ body: { email: 'devices@example.com', username: 'devices', password: 'secret1' } });
    const a = await server.api().login({ body: { email: 'devices@example.com', password: 'secret1' } });
    const b = await server.api().extensionLogin({ body: { email: 'devices@example.com', password: 'secret1' } });
    expect(a.token).not.toBe(b.token);
    await server.api(a.token).logout();
    const revoked = await failure(server.api(a.token).me());
    expect([revoked.status, revoked.code, revoked.message]).toEqual([
      401,
      'UNAUTHENTICATED',
      'Authentication required',
    ]);
    expect((await server.api(b.token).me()).user.email).toBe('devices@example.com');
  });

  it('stores tokens only as hashes', async () => {
    const { token } = await server.signUp('hashes');
    const rows = await server.database.db.selectFrom('auth_tokens').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('rejects missing, malformed and unknown tokens with 401', async () => {
    for (const header of [undefined, 'Bearer', 'Bearer nope', `Bearer ${'x'.repeat(43)}`, 'Basic abc']) {
      const res = await raw(server, 'GET', '/api/auth/me', { headers: header ? { authorization: header } : {} });
      expect(res.status).toBe(401);
      expect(res.json()).toEqual({ error: 'Authentication required', code: 'UNAUTHENTICATED' });
    }
  });

  it('expires a token left unused for 90 days', async () => {
    const { api } = await server.signUp('idle');
    await api.me();
    server.clock.advance(91 * 86_400_000);
    const e = await failure(api.me());
    expect(e.status).toBe(401);
  });

  it('registers from the extension and publishes captcha settings', async () => {
    const res = await server
      .api()
      .extensionRegister({ body: { email: 'ext@example.com', username: 'extuser', password: 'secret1' } });
    expect(res.token).toBeTruthy();
    expect(await server.api().captchaConfig()).toEqual({ provider: 'off' });
  });

  it('stores argon2id hashes with the OWASP parameters', async () => {
    const row = await server.database.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
