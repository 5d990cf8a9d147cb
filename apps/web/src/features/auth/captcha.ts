import { solveChallenge } from 'altcha-lib/v1';
import { api } from '../../lib/api';

export type CaptchaAction = 'login' | 'register';

interface Grecaptcha {
  ready: (callback: () => void) => void;
  execute: (siteKey: string, options: { action: string }) => Promise<string>;
}
interface Turnstile {
  render: (
    element: HTMLElement,
    options: {
      sitekey: string;
      action: string;
      appearance: 'interaction-only';
      callback: (token: string) => void;
      'error-callback': () => void;
    },
  ) => string;
  remove: (widgetId: string) => void;
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    turnstile?: Turnstile;
  }
}

/** The spec's wait for the provider's script: 50 attempts of 100 ms. */
const ATTEMPTS = 50;
const ATTEMPT_MS = 100;

const scripts = new Map<string, Promise<void>>();

/** Loads a provider's script once, only on the pages that need it. */
function loadScript(src: string): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        scripts.delete(src);
        reject(new Error('captcha script failed to load'));
      };
      document.head.appendChild(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}

async function waitFor<T>(read: () => T | undefined): Promise<T | undefined> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const value = read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, ATTEMPT_MS));
  }
  return undefined;
}

interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber?: number;
}

/**
 * A token proving a person for `action`, from the provider the server names; undefined when the
 * server asks for none, or when the provider did not answer (the server then says what to do).
 */
export async function captchaToken(action: CaptchaAction): Promise<string | undefined> {
  const config = await api.captchaConfig();
  switch (config.provider) {
    case 'off':
      return undefined;
    case 'altcha': {
      // A proof of work solved here (no third party); the server checks it once.
      const challenge = config.challenge as AltchaChallenge;
      const solution = await solveChallenge(
        challenge.challenge,
        challenge.salt,
        challenge.algorithm,
        challenge.maxnumber,
      ).promise;
      if (!solution) return undefined;
      return btoa(JSON.stringify({ ...challenge, number: solution.number }));
    }
    case 'recaptcha': {
      const siteKey = config.siteKey ?? '';
      await loadScript(`https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`).catch(
        () => undefined,
      );
      const grecaptcha = await waitFor(() => window.grecaptcha);
      if (!grecaptcha) return undefined;
      await new Promise<void>((resolve) => grecaptcha.ready(resolve));
      return grecaptcha.execute(siteKey, { action }).catch(() => undefined);
    }
    case 'turnstile': {
      await loadScript('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit').catch(() => undefined);
      const turnstile = await waitFor(() => window.turnstile);
      if (!turnstile) return undefined;
      const host = document.createElement('div');
      document.body.appendChild(host);
      try {
        return await new Promise<string | undefined>((resolve) => {
          const id = turnstile.render(host, {
            sitekey: config.siteKey ?? '',
            action,
            appearance: 'interaction-only',
            callback: (token) => {
              resolve(token);
              turnstile.remove(id);
            },
            'error-callback': () => resolve(undefined),
          });
        });
      } finally {
        host.remove();
      }
    }
  }
}
