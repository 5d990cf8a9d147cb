import { AccountMessages } from '@linkwise/contract';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, freePort, loggedApp, raw, startServer, type TestServer } from './harness.js';
import { startMailbox } from './mail-double.js';

describe.each(engines())('password reset by email on %s', (engine) => {
  let server: TestServer;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startServer(engine, { SMTP_URL: mailbox.url, MAIL_FROM: 'Linkwise <no-reply@linkwise.test>' });
  });
  afterAll(async () => {
    await server.close();
    await mailbox.close();
  });

  const tokenIn = (text: string) => {
    const match = /\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(text);
    if (!match) throw new Error(`no reset link in: ${text}`);
    return decodeURIComponent(match[1]!);
  };

  it('sends a single-use link that sets a new password and signs every device out', async () => {
    expect(await server.api().authFeatures()).toEqual({ passwordReset: true });
    const user = await server.signUp('reset');
    const other = await server.api().login({ body: { email: user.email, password: 'correct horse' } });
    const answer = await server.api().forgotPassword({ body: { email: user.email.toUpperCase() } });
    expect(answer).toEqual({ message: AccountMessages.resetSent });

    const mail = await mailbox.next(user.email);
    expect(mail.subject).toBe('Reset your Linkwise password');
    expect(mail.from?.text).toContain('no-reply@linkwise.test');
    expect(mail.text).toContain(`${server.url}/reset-password?token=`);
    expect(mail.html).toContain('href="');
    const token = tokenIn(mail.text ?? '');

    const common = await failure(server.api().resetPassword({ body: { token, password: 'password1' } }));
    expect([common.status, common.message]).toEqual([400, AccountMessages.commonPassword]);
    await server.api().resetPassword({ body: { token, password: 'a whole new one' } });
    for (const t of [user.token, other.token]) expect((await failure(server.api(t).me())).code).toBe('UNAUTHENTICATED');
    expect((await server.api().login({ body: { email: user.email, password: 'a whole new one' } })).user.id).toBe(
      user.userId,
    );
    const again = await failure(server.api().resetPassword({ body: { token, password: 'yet another one' } }));
    expect([again.status, again.code, again.message]).toEqual([400, 'VALIDATION_ERROR', AccountMessages.resetInvalid]);
  });

  it('answers the same whether or not the email has an account, and sends nothing for an unknown one', async () => {
    const known = await server.signUp('known');
    const unknownRes = await raw(server, 'POST', '/api/auth/forgot-password', {
      body: JSON.stringify({ email: 'nobody-at-all@example.com' }),
    });
    const knownRes = await raw(server, 'POST', '/api/auth/forgot-password', {
      body: JSON.stringify({ email: known.email }),
    });
    expect([unknownRes.status, unknownRes.text]).toEqual([knownRes.status, knownRes.text]);
    expect(knownRes.status).toBe(202);
    await mailbox.next(known.email);
    expect(mailbox.messages.filter((m) => JSON.stringify(m.to).includes('nobody-at-all'))).toEqual([]);
  });

  it('expires a link after 30 minutes, and only the newest link works', async () => {
    const user = await server.signUp('expiry');
    await server.api().forgotPassword({ body: { email: user.email } });
    const first = tokenIn((await mailbox.next(user.email)).text ?? '');
    await server.api().forgotPassword({ body: { email: user.email } });
    const second = tokenIn((await mailbox.next(user.email)).text ?? '');
    expect(
      (await failure(server.api().resetPassword({ body: { token: first, password: 'new password 1' } }))).code,
    ).toBe('VALIDATION_ERROR');
    server.clock.advance(31 * 60_000);
    const late = await failure(server.api().resetPassword({ body: { token: second, password: 'new password 1' } }));
    expect(late.message).toBe(AccountMessages.resetInvalid);
    expect((await server.api().login({ body: { email: user.email, password: 'correct horse' } })).user.id).toBe(
      user.userId,
    );
  });

  it('is not offered without SMTP', async () => {
    const plain = await startServer(engine);
    try {
      expect(await plain.api().authFeatures()).toEqual({ passwordReset: false });
      const res = await raw(plain, 'POST', '/api/auth/forgot-password', {
        body: JSON.stringify({ email: 'a@example.com' }),
      });
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ error: AccountMessages.resetUnavailable, code: 'NOT_FOUND' });
    } finally {
      await plain.close();
    }
  });
});

describe('the administrator reset (npm run reset-password) on sqlite', () => {
  it('sets a generated password and signs every device out', async () => {
    const server = await startServer('sqlite');
    try {
      const user = await server.signUp('admin-reset');
      const script = fileURLToPath(new URL('../src/reset-password.ts', import.meta.url));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--conditions=@linkwise/source', '--import', 'tsx', script, user.email],
        { env: { ...process.env, DATA_DIR: server.config.dataDir, DATABASE_URL: '', LINKWISE_NEW_PASSWORD: '' } },
      );
      const password = /New password: (\S+)/.exec(stdout)?.[1];
      expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect((await failure(user.api.me())).code).toBe('UNAUTHENTICATED');
      expect((await server.api().login({ body: { email: user.email, password: password! } })).user.id).toBe(
        user.userId,
      );
    } finally {
      await server.close();
    }
  });
});

describe('an SMTP server that does not answer', () => {
  it('is logged at start-up, without its password, instead of first when a reset mail is lost', async () => {
    const port = await freePort();
    const logged = await loggedApp({ SMTP_URL: `smtp://mailer:hunter2secret@127.0.0.1:${port}` });
    try {
      const warning = await logged.waitForLine('SMTP_URL cannot be used');
      expect([warning?.level, warning?.reason]).toEqual([40, expect.stringContaining('ECONNREFUSED') as string]);
      expect(logged.lines.join('')).not.toContain('hunter2secret');
    } finally {
      await logged.close();
    }
  });
});
