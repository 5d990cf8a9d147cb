/**
 * Bot checks for sign-in and registration. Providers plug in here (altcha, reCAPTCHA v3, Turnstile);
 * this version ships `off`, which accepts every request.
 */
export interface CaptchaVerifier {
  readonly provider: 'off' | 'altcha' | 'recaptcha' | 'turnstile';
  /** True when the token proves a person for `action` ('login' | 'register'). */
  verify(token: string | undefined, action: 'login' | 'register', remoteIp: string): Promise<boolean>;
  publicConfig(): { provider: CaptchaVerifier['provider']; siteKey?: string };
}

export const captchaOff: CaptchaVerifier = {
  provider: 'off',
  verify: () => Promise.resolve(true),
  publicConfig: () => ({ provider: 'off' }),
};

/** The verifier CAPTCHA names. */
export function captchaFor(_config: { CAPTCHA: CaptchaVerifier['provider'] }): CaptchaVerifier {
  return captchaOff;
}
