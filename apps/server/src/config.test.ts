import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const fails = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('has working defaults for the two-command quick start', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      BILLING: 'simulated',
      AI_PROVIDER: 'local',
      CAPTCHA: 'off',
      FREE_LINK_LIMIT: 30,
      PRICE_MONTHLY: 4.9,
      PRICE_YEARLY: 49.9,
      appUrl: 'http://127.0.0.1:3000',
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.dataDir).toMatch(/\/data$/);
  });

  it('names the variable and what is allowed, in one line', () => {
    expect(fails({ PORT: 'abc' })).toBe(
      'Invalid configuration: PORT must be a port number between 0 and 65535 (got "abc")',
    );
    expect(fails({ BILLING: 'paypal' })).toBe(
      'Invalid configuration: BILLING must be off, simulated or stripe (got "paypal")',
    );
    expect(fails({ FREE_LINK_LIMIT: '0' })).toBe(
      'Invalid configuration: FREE_LINK_LIMIT must be a whole number of links, 1 or more (got "0")',
    );
    expect(fails({ FETCH_ALLOW_PRIVATE: 'maybe' })).toContain('FETCH_ALLOW_PRIVATE must be true or false');
    expect(fails({ DATABASE_URL: 'mysql://x' })).toMatch(
      /^Invalid configuration: DATABASE_URL must be a URL \(postgres or postgresql\)$/,
    );
    for (const message of [fails({ PORT: '1' + '0'.repeat(6) }), fails({ BILLING: 'x' })])
      expect(message).not.toContain('\n');
  });

  it('never echoes a secret value', () => {
    const message = fails({ DATABASE_URL: 'mysql://admin:hunter2@db' });
    expect(message).not.toContain('hunter2');
    expect(fails({ AI_PROVIDER: 'gemini' })).toBe(
      'Invalid configuration: GEMINI_API_KEY is required when AI_PROVIDER=gemini',
    );
  });

  it('treats empty values as unset so .env.example can be copied as is', () => {
    const c = loadConfig({ PORT: '', DATABASE_URL: '  ' });
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('refuses providers this version does not implement rather than ignoring them', () => {
    expect(fails({ CAPTCHA: 'recaptcha' })).toBe(
      'Invalid configuration: CAPTCHA only "off" is supported in this version (got "recaptcha")',
    );
  });

  it('derives the public URL and accepts PostgreSQL', () => {
    const c = loadConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: 'postgres://u@127.0.0.1:5432/lw' });
    expect(c.appUrl).toBe('http://localhost:8080');
    expect(c.DATABASE_URL).toBe('postgres://u@127.0.0.1:5432/lw');
    expect(loadConfig({ APP_URL: 'https://links.example.org/' }).appUrl).toBe('https://links.example.org');
  });
});
