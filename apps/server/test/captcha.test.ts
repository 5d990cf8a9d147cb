import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Messages } from '@linkwise/contract';
import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, freePort, startServer, type TestServer } from './harness.js';

/**
 * A siteverify double speaking reCAPTCHA's and Turnstile's wire format. The token says what to
 * answer: `ok:<action>`, `low:<action>` (score 0.1), `host:<action>` (another hostname), `no`.
 */
async function startSiteVerify(): Promise<{ url: string; seen: URLSearchParams[]; close: () => Promise<void> }> {
  const seen: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      const [kind, action] = (form.get('response') ?? '').split(':');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          success: kind !== 'no',
          action,
          hostname: kind === 'host' ? 'evil.example' : '127.0.0.1',
          score: kind === 'low' ? 0.1 : 0.9,
          challenge_ts: new Date().toISOString(),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(engines())('captcha providers on %s', (engine) => {
  let double: Awaited<ReturnType<typeof startSiteVerify>>;
  beforeAll(async () => {
    double = await startSiteVerify();
  });
  afterAll(() => double.close());

  for (const provider of ['recaptcha', 'turnstile'] as const) {
    describe(provider, () => {
      let server: TestServer;
      const prefix = provider.toUpperCase();
      beforeAll(async () => {
        server = await startServer(engine, {
          CAPTCHA: provider,
          [`${prefix}_SITE_KEY`]: 'site-key-public',
          [`${prefix}_SECRET`]: 'secret-never-shown',
          [`${prefix}_VERIFY_URL`]: double.url,
        });
      });
      afterAll(() => server.close());

      const register = (recaptchaToken?: string) =>
        server.api().register({
          body: {
            email: `${provider}-${Math.random().toString(36).slice(2)}@example.com`,
            username: `u${Math.random().toString(36).slice(2, 10)}`,
            password: 'correct horse',
            ...(recaptchaToken !== undefined && { recaptchaToken }),
          },
        });

      it('gives the form the public site key only, and lets the page load only this provider', async () => {
        expect(await server.api().captchaConfig()).toEqual({ provider, siteKey: 'site-key-public' });
        const csp = (await fetch(`${server.url}/login`)).headers.get('content-security-policy') ?? '';
        const origin = provider === 'recaptcha' ? 'https://www.google.com' : 'https://challenges.cloudflare.com';
        const other = provider === 'recaptcha' ? 'https://challenges.cloudflare.com' : 'https://www.google.com';
        expect(csp).toContain(`script-src 'self' ${origin}`);
        expect(csp).not.toContain(other);
      });

      it('accepts a good token for the right action, sending the secret and the address', async () => {
        const { user } = await register('ok:register');
        expect(user.username).toBeTruthy();
        const sent = double.seen.at(-1)!;
        expect([sent.get('secret'), sent.get('response'), sent.get('remoteip')]).toEqual([
          'secret-never-shown',
          'ok:register',
          '127.0.0.1',
        ]);
        const login = await server.api().login({
          body: { email: user.email, password: 'correct horse', recaptchaToken: 'ok:login' },
        });
        expect(login.user.id).toBe(user.id);
      });

      const refused: [string, string | undefined][] = [
        ['a missing token', undefined],
        ['the wrong action', 'ok:login'],
        ['a failed check', 'no'],
        ['another hostname', 'host:register'],
      ];
      if (provider === 'recaptcha') refused.push(['a low score', 'low:register']);
      it.each(refused)('refuses %s with RECAPTCHA_FAILED', async (_name, token) => {
        const error = await failure(register(token));
        expect([error.status, error.code, error.message]).toEqual([400, 'RECAPTCHA_FAILED', Messages.captchaMissing]);
      });

      it('refuses everyone while the provider cannot be reached', async () => {
        await server.restart({ [`${prefix}_VERIFY_URL`]: `http://127.0.0.1:${await freePort()}/siteverify` });
        expect((await failure(register('ok:register'))).code).toBe('RECAPTCHA_FAILED');
        await server.restart({ [`${prefix}_VERIFY_URL`]: double.url });
      });
    });
  }

  describe('altcha', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(engine, { CAPTCHA: 'altcha' });
    });
    afterAll(() => server.close());

    async function solved(): Promise<string> {
      const config = await server.api().captchaConfig();
      expect(config.provider).toBe('altcha');
      const challenge = config.challenge as { algorithm: string; challenge: string; salt: string; signature: string };
      const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, 100_000).promise;
      expect(solution).not.toBeNull();
      return Buffer.from(JSON.stringify({ ...challenge, number: solution!.number })).toString('base64');
    }

    it('accepts a solved proof of work once, and refuses a forged or missing one', async () => {
      const token = await solved();
      const body = (recaptchaToken?: string) => ({
        email: `altcha-${Math.random().toString(36).slice(2)}@example.com`,
        username: `a${Math.random().toString(36).slice(2, 10)}`,
        password: 'correct horse',
        ...(recaptchaToken !== undefined && { recaptchaToken }),
      });
      await server.api().register({ body: body(token) });
      expect((await failure(server.api().register({ body: body(token) }))).code).toBe('RECAPTCHA_FAILED');
      const forged = JSON.parse(Buffer.from(await solved(), 'base64').toString()) as { number: number };
      forged.number += 1;
      const forgedToken = Buffer.from(JSON.stringify(forged)).toString('base64');
      expect((await failure(server.api().register({ body: body(forgedToken) }))).code).toBe('RECAPTCHA_FAILED');
      expect((await failure(server.api().register({ body: body() }))).code).toBe('RECAPTCHA_FAILED');
      expect((await failure(server.api().register({ body: body('not base64 at all') }))).code).toBe('RECAPTCHA_FAILED');
    });
  });
});
