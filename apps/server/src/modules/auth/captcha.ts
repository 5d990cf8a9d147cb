import { createHash } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { LRUCache } from 'lru-cache';

export type CaptchaAction = 'login' | 'register';

/** Bot checks for sign-in, registration and password-reset requests (CAPTCHA). */
export interface CaptchaVerifier {
  readonly provider: 'off' | 'altcha' | 'recaptcha' | 'turnstile';
  /** True when the token proves a person for `action`; a provider that cannot be reached says no. */
  verify(token: string | undefined, action: CaptchaAction, remoteIp: string): Promise<boolean>;
  /** What a sign-in form needs: the public site key, or a fresh proof-of-work challenge (altcha). */
  publicConfig(): Promise<{ provider: CaptchaVerifier['provider']; siteKey?: string; challenge?: unknown }>;
}

export const captchaOff: CaptchaVerifier = {
  provider: 'off',
  verify: () => Promise.resolve(true),
  publicConfig: () => Promise.resolve({ provider: 'off' }),
};

export interface CaptchaConfig {
  CAPTCHA: CaptchaVerifier['provider'];
  RECAPTCHA_SITE_KEY?: string | undefined;
  RECAPTCHA_SECRET?: string | undefined;
  RECAPTCHA_VERIFY_URL?: string | undefined;
  RECAPTCHA_MIN_SCORE: number;
  TURNSTILE_SITE_KEY?: string | undefined;
  TURNSTILE_SECRET?: string | undefined;
  TURNSTILE_VERIFY_URL?: string | undefined;
  CAPTCHA_HOSTNAMES?: string | undefined;
  appUrl: string;
}

const VERIFY_TIMEOUT_MS = 5_000;

interface SiteVerifyAnswer {
  success?: unknown;
  score?: unknown;
  action?: unknown;
  hostname?: unknown;
}

/**
 * reCAPTCHA v3 and Turnstile speak the same siteverify protocol: a form POST of secret, response and
 * remoteip answered by `{success, action, hostname}` (and reCAPTCHA's `score`).
 */
function siteVerify(options: {
  provider: 'recaptcha' | 'turnstile';
  siteKey: string;
  secret: string;
  url: string;
  minScore: number | undefined;
  hostnames: string[];
}): CaptchaVerifier {
  return {
    provider: options.provider,
    async verify(token, action, remoteIp) {
      if (!token) return false;
      let answer: SiteVerifyAnswer;
      try {
        const response = await fetch(options.url, {
          method: 'POST',
          body: new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp }),
          signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
        });
        if (!response.ok) return false;
        answer = (await response.json()) as SiteVerifyAnswer;
      } catch {
        return false;
      }
      if (answer.success !== true || answer.action !== action) return false;
      if (typeof answer.hostname !== 'string' || !options.hostnames.includes(answer.hostname)) return false;
      if (options.minScore !== undefined && !(typeof answer.score === 'number' && answer.score >= options.minScore)) {
        return false;
      }
      return true;
    },
    publicConfig: () => Promise.resolve({ provider: options.provider, siteKey: options.siteKey }),
  };
}

/**
 * ALTCHA: a proof of work the browser solves, signed and checked here with no third party. A solved
 * challenge is accepted once (kept until it expires) and only for a few minutes.
 */
function altcha(hmacKey: string): CaptchaVerifier {
  const CHALLENGE_TTL_MS = 10 * 60_000;
  const used = new LRUCache<string, true>({ max: 100_000, ttl: CHALLENGE_TTL_MS });
  return {
    provider: 'altcha',
    async verify(token) {
      if (!token) return false;
      let ok = false;
      try {
        ok = await verifySolution(token, hmacKey, true);
      } catch {
        return false;
      }
      if (!ok) return false;
      const key = createHash('sha256').update(token).digest('hex');
      if (used.has(key)) return false;
      used.set(key, true);
      return true;
    },
    async publicConfig() {
      const challenge = await createChallenge({
        hmacKey,
        maxNumber: 100_000,
        expires: new Date(Date.now() + CHALLENGE_TTL_MS),
      });
      return { provider: 'altcha', challenge };
    },
  };
}

/** The verifier CAPTCHA names (the configuration has checked that its keys are set). */
export function captchaFor(config: CaptchaConfig, serverKey: string): CaptchaVerifier {
  const hostnames = config.CAPTCHA_HOSTNAMES
    ? config.CAPTCHA_HOSTNAMES.split(',').map((h) => h.trim().toLowerCase())
    : [new URL(config.appUrl).hostname];
  switch (config.CAPTCHA) {
    case 'off':
      return captchaOff;
    case 'recaptcha':
      return siteVerify({
        provider: 'recaptcha',
        siteKey: config.RECAPTCHA_SITE_KEY ?? '',
        secret: config.RECAPTCHA_SECRET ?? '',
        url: config.RECAPTCHA_VERIFY_URL ?? 'https://www.google.com/recaptcha/api/siteverify',
        minScore: config.RECAPTCHA_MIN_SCORE,
        hostnames,
      });
    case 'turnstile':
      return siteVerify({
        provider: 'turnstile',
        siteKey: config.TURNSTILE_SITE_KEY ?? '',
        secret: config.TURNSTILE_SECRET ?? '',
        url: config.TURNSTILE_VERIFY_URL ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
        minScore: undefined,
        hostnames,
      });
    case 'altcha':
      return altcha(createHash('sha256').update(`linkwise-altcha:${serverKey}`).digest('hex'));
  }
}
