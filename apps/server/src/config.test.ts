import { describe, expect, it } from 'vitest';
import { envSwitch } from './lib/switch-words.js';
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
      TRIAL_DAYS: 0,
      // The address the README tells people to open: links handed out come back to the same origin.
      appUrl: 'http://localhost:3000',
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
    expect(fails({ DATABASE_POOL_SIZE: 'lots' })).toBe(
      'Invalid configuration: DATABASE_POOL_SIZE must be a whole number of connections from 1 to 200 (got "lots")',
    );
    expect(fails({ JOB_CONCURRENCY: '0' })).toContain('JOB_CONCURRENCY must be a whole number of jobs from 1 to 64');
    expect(fails({ MAIL_FROM: 'x' })).toContain('MAIL_FROM must be a sender address such as');
    expect(fails({ ROLE: 'worker', JOBS_ENABLED: 'false', DATABASE_URL: 'postgres://db.example/x' })).toContain(
      'JOBS_ENABLED false leaves a ROLE=worker process nothing to do',
    );
    // Read by the model's thread, but checked with the rest; the thread reads the same words.
    expect(fails({ MODEL_MEMORY_TRIM: 'False' })).toContain('MODEL_MEMORY_TRIM must be true or false');
    expect(['no', '0', ' false ', 'yes', undefined].map((v) => envSwitch(v, true))).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
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

  it('leaves NODE_ENV alone: the server does not read it, so no value of it stops the start', () => {
    expect(() => loadConfig({ NODE_ENV: 'staging' })).not.toThrow();
  });

  it('trusts as many proxies as TRUST_PROXY says (true: one), or the proxies at the addresses it lists', () => {
    const trust = (TRUST_PROXY: string) => loadConfig({ TRUST_PROXY }).TRUST_PROXY;
    expect([trust('false'), trust('0'), trust('true'), trust('YES'), trust('1'), trust('2')]).toEqual([
      false,
      false,
      1,
      1,
      1,
      2,
    ]);
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(trust('10.0.0.1, 10.1.0.0/16,fd00::/8')).toEqual(['10.0.0.1', '10.1.0.0/16', 'fd00::/8']);
    for (const bad of ['maybe', '10.0.0.0/33', '10.0.0.1/8/2', 'proxy.example', '-1', '100']) {
      expect(fails({ TRUST_PROXY: bad })).toContain(
        'TRUST_PROXY must be false, true (one proxy in front), how many proxies are in front (2, 3…), or their addresses (10.0.0.1, 10.0.0.0/8)',
      );
    }
  });

  it('treats empty values as unset so .env.example can be copied as is', () => {
    const c = loadConfig({ PORT: '', DATABASE_URL: '  ' });
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('refuses a captcha provider without its keys rather than refusing every sign-in', () => {
    expect(fails({ CAPTCHA: 'recaptcha' })).toBe(
      'Invalid configuration: CAPTCHA recaptcha needs RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET (got "recaptcha")',
    );
  });

  it('with BILLING=stripe, stops at start-up naming every missing key or price in one line', () => {
    expect(fails({ BILLING: 'stripe' })).toBe(
      'Invalid configuration: STRIPE_SECRET_KEY is required when BILLING=stripe (also missing: STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_MONTHLY, STRIPE_PRICE_YEARLY)',
    );
    const stripe = {
      BILLING: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_hunter2',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PRICE_MONTHLY: 'price_m',
    };
    expect(fails(stripe)).toBe('Invalid configuration: STRIPE_PRICE_YEARLY is required when BILLING=stripe');
    expect(loadConfig({ ...stripe, STRIPE_PRICE_YEARLY: 'price_y' }).BILLING).toBe('stripe');
    const wrongKey = fails({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_hunter2', STRIPE_PRICE_YEARLY: 'price_y' });
    expect(wrongKey).toBe(
      'Invalid configuration: STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)',
    );
    expect(fails({ ...stripe, STRIPE_PRICE_YEARLY: 'prod_y' })).toBe(
      'Invalid configuration: STRIPE_PRICE_YEARLY must be a Stripe price id (price_…) (got "prod_y")',
    );
    expect(fails({ TRIAL_DAYS: '-1' })).toMatch(/TRIAL_DAYS must be a whole number of days between 0 and 730/);
    expect(loadConfig({ TRIAL_DAYS: '14' }).TRIAL_DAYS).toBe(14);
  });

  it('derives the public URL from the host people open, and accepts PostgreSQL', () => {
    expect(loadConfig({ HOST: '127.0.0.1', PORT: '3100' }).appUrl).toBe('http://localhost:3100');
    expect(loadConfig({ HOST: '192.168.1.20' }).appUrl).toBe('http://192.168.1.20:3000');
    const c = loadConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: 'postgres://u@127.0.0.1:5432/lw' });
    expect(c.appUrl).toBe('http://localhost:8080');
    expect(c.DATABASE_URL).toBe('postgres://u@127.0.0.1:5432/lw');
    expect(loadConfig({ APP_URL: 'https://links.example.org/' }).appUrl).toBe('https://links.example.org');
  });

  it('chooses a remote embedding model with a known size, or one given by EMBEDDING_DIMENSIONS', () => {
    expect(loadConfig({}).remoteEmbedding).toBeNull();
    expect(
      loadConfig({ OPENAI_EMBEDDING_MODEL: 'text-embedding-3-small', OPENAI_API_KEY: 'sk' }).remoteEmbedding,
    ).toEqual({
      provider: 'openai',
      model: 'text-embedding-3-small',
      dimensions: 1536,
      sendDimensions: false,
    });
    expect(
      loadConfig({ GEMINI_EMBEDDING_MODEL: 'gemini-embedding-001', GEMINI_API_KEY: 'g', EMBEDDING_DIMENSIONS: '768' })
        .remoteEmbedding,
    ).toEqual({ provider: 'gemini', model: 'gemini-embedding-001', dimensions: 768, sendDimensions: true });
    // A local server's model: the size is declared, not requested (such servers often reject the option).
    expect(
      loadConfig({
        OPENAI_EMBEDDING_MODEL: 'nomic-embed-text',
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
        EMBEDDING_DIMENSIONS: '768',
      }).remoteEmbedding,
    ).toEqual({ provider: 'openai', model: 'nomic-embed-text', dimensions: 768, sendDimensions: false });
  });

  it('refuses embedding settings that cannot work, naming the variable', () => {
    expect(fails({ OPENAI_EMBEDDING_MODEL: 'nomic-embed-text', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toBe(
      'Invalid configuration: EMBEDDING_DIMENSIONS is required for embedding model "nomic-embed-text" (the size of its vectors; known without it: text-embedding-3-small, text-embedding-3-large, text-embedding-ada-002)',
    );
    expect(
      fails({
        OPENAI_EMBEDDING_MODEL: 'text-embedding-3-small',
        OPENAI_API_KEY: 'sk',
        GEMINI_EMBEDDING_MODEL: 'text-embedding-004',
        GEMINI_API_KEY: 'g',
      }),
    ).toBe(
      'Invalid configuration: GEMINI_EMBEDDING_MODEL cannot be set together with OPENAI_EMBEDDING_MODEL: choose one embedding provider (got "text-embedding-004")',
    );
    expect(fails({ EMBEDDING_DIMENSIONS: '256' })).toMatch(
      /^Invalid configuration: EMBEDDING_DIMENSIONS applies only to a remote embedding model/,
    );
    expect(fails({ OPENAI_EMBEDDING_MODEL: 'text-embedding-3-small' })).toMatch(
      /^Invalid configuration: OPENAI_API_KEY is required when OPENAI_EMBEDDING_MODEL is set/,
    );
    expect(fails({ GEMINI_EMBEDDING_MODEL: 'text-embedding-004' })).toBe(
      'Invalid configuration: GEMINI_API_KEY is required when GEMINI_EMBEDDING_MODEL is set',
    );
    expect(
      fails({ OPENAI_EMBEDDING_MODEL: 'text-embedding-ada-002', OPENAI_API_KEY: 'sk', EMBEDDING_DIMENSIONS: '512' }),
    ).toMatch(/EMBEDDING_DIMENSIONS must be 1536 \(or unset\) for text-embedding-ada-002/);
    expect(
      fails({ GEMINI_EMBEDDING_MODEL: 'text-embedding-004', GEMINI_API_KEY: 'g', EMBEDDING_DIMENSIONS: '1024' }),
    ).toMatch(/EMBEDDING_DIMENSIONS must be at most 768 for text-embedding-004/);
    expect(fails({ OPENAI_EMBEDDING_MODEL: 'm', OPENAI_API_KEY: 'sk', EMBEDDING_DIMENSIONS: 'many' })).toMatch(
      /EMBEDDING_DIMENSIONS must be a whole number of dimensions between 1 and 8192 \(got "many"\)/,
    );
  });
});
