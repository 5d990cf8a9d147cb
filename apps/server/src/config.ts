import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { SWITCH_WORDS, switchOn } from './lib/switch-words.js';
import {
  knownModel,
  knownModelNames,
  sendsDimensions,
  type EmbeddingProvider,
} from './modules/ml/providers/embedding-models.js';

const bool = z.enum(SWITCH_WORDS, { error: 'must be true or false' }).transform(switchOn);

const TRUST_PROXY_ALLOWED =
  'must be false, true (one proxy in front), how many proxies are in front (2, 3…), or their addresses (10.0.0.1, 10.0.0.0/8)';

/**
 * Which proxies' X-Forwarded-For to believe. A count trusts that many hops from this server, so the
 * client is the address the outermost of them saw, whatever a client wrote into the header before;
 * `true` is one proxy. Addresses (or CIDR ranges) trust the proxies with those addresses.
 */
const trustProxy = z.string().transform((value, ctx): false | number | string[] => {
  const v = value.toLowerCase();
  if (v === 'false' || v === 'no' || v === '0') return false;
  if (v === 'true' || v === 'yes') return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  const addresses = value.split(',').map((a) => a.trim());
  const valid = (entry: string) => {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) return false;
    if (prefix === undefined) return true;
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  };
  if (addresses.every(valid)) return addresses;
  ctx.addIssue({ code: 'custom', message: TRUST_PROXY_ALLOWED });
  return z.NEVER;
});

/** A whole number in a range, refused with one message that says what is allowed. */
const whole = (min: number, max: number, unit: string) => {
  const error = `must be a whole number of ${unit} from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const money = z.coerce
  .number({ error: 'must be a price such as 4.90' })
  .positive({ error: 'must be a price above 0' })
  .max(100000, { error: 'must be a price below 100000' });

const url = (protocols: string[]) =>
  z.url({ error: `must be a URL (${protocols.join(' or ')})`, protocol: new RegExp(`^(${protocols.join('|')})$`) });

/** What BILLING=stripe cannot start without. */
const STRIPE_REQUIRED = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_MONTHLY',
  'STRIPE_PRICE_YEARLY',
] as const;

/** Every environment variable the server reads (ARCHITECTURE §11), with defaults and allowed values. */
export const ConfigSchema = z
  .object({
    PORT: z.coerce
      .number({ error: 'must be a port number between 0 and 65535' })
      .int({ error: 'must be a port number between 0 and 65535' })
      .min(0, { error: 'must be a port number between 0 and 65535' })
      .max(65535, { error: 'must be a port number between 0 and 65535' })
      .default(3000),
    HOST: z.string().min(1, { error: 'must be a host name or address' }).default('127.0.0.1'),
    APP_URL: url(['http', 'https']).optional(),
    DATA_DIR: z.string().min(1, { error: 'must be a folder path' }).default('./data'),
    DATABASE_URL: url(['postgres', 'postgresql']).optional(),
    DATABASE_POOL_SIZE: whole(1, 200, 'connections').optional(),
    REDIS_URL: url(['redis', 'rediss']).optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    FETCH_ALLOW_PRIVATE: bool.default(false),
    AI_PROVIDER: z.enum(['local', 'openai', 'gemini'], { error: 'must be local, openai or gemini' }).default('local'),
    OPENAI_BASE_URL: url(['http', 'https']).optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
    OPENAI_EMBEDDING_MODEL: z.string().min(1).optional(),
    GEMINI_API_KEY: z.string().min(1).optional(),
    GEMINI_MODEL: z.string().min(1).default('gemini-2.0-flash'),
    GEMINI_BASE_URL: url(['http', 'https']).optional(),
    GEMINI_EMBEDDING_MODEL: z.string().min(1).optional(),
    // Size of the remote embedding model's vectors: required for models not in embedding-models.ts.
    EMBEDDING_DIMENSIONS: z.coerce
      .number({ error: 'must be a whole number of dimensions between 1 and 8192' })
      .int({ error: 'must be a whole number of dimensions between 1 and 8192' })
      .min(1, { error: 'must be a whole number of dimensions between 1 and 8192' })
      .max(8192, { error: 'must be a whole number of dimensions between 1 and 8192' })
      .optional(),
    AI_TIMEOUT_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds from 1 to 300' })
      .min(1, { error: 'must be a number of seconds from 1 to 300' })
      .max(300, { error: 'must be a number of seconds from 1 to 300' })
      .default(20),
    // The offline embedding model (decision 0011): a transformer from MODELS_DIR, or USE-lite alone.
    LOCAL_MODEL: z
      .enum(['minilm-bge-use-multilingual', 'minilm-use-multilingual', 'all-minilm-l6-v2', 'use-lite'], {
        error: 'must be minilm-bge-use-multilingual, minilm-use-multilingual, all-minilm-l6-v2 or use-lite',
      })
      .default('minilm-bge-use-multilingual'),
    MODELS_DIR: z.string().min(1, { error: 'must be a folder path' }).optional(),
    // Where a missing model is downloaded from (a mirror laid out like the hub), and whether it is.
    MODEL_HUB_URL: url(['http', 'https']).default('https://huggingface.co'),
    MODEL_DOWNLOAD: bool.default(true),
    MODEL_THREADS: whole(1, 64, 'threads').default(1),
    // Read by the model's own thread (transformer.worker.ts); checked here with everything else.
    MODEL_MEMORY_TRIM: bool.default(true),
    // ROLE=api: how long a search waits for a worker to embed its query before answering from text.
    QUERY_EMBED_TIMEOUT_MS: z.coerce
      .number({ error: 'must be a whole number of milliseconds between 50 and 60000' })
      .int({ error: 'must be a whole number of milliseconds between 50 and 60000' })
      .min(50, { error: 'must be a whole number of milliseconds between 50 and 60000' })
      .max(60_000, { error: 'must be a whole number of milliseconds between 50 and 60000' })
      .default(2000),
    // What this process does (ARCHITECTURE §12): everything, only HTTP, or only background jobs.
    ROLE: z.enum(['all', 'api', 'worker'], { error: 'must be all, api or worker' }).default('all'),
    JOBS_ENABLED: bool.default(true),
    METRICS: bool.default(false),
    // Optional bearer token for GET /metrics (the numbers describe the installation, not any user).
    METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    JOB_CONCURRENCY: whole(1, 64, 'jobs').default(2),
    JOB_LOCK_TIMEOUT_SECONDS: whole(1, 86400, 'seconds').default(120),
    BILLING: z.enum(['off', 'simulated', 'stripe'], { error: 'must be off, simulated or stripe' }).default('simulated'),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\S+$/, { error: 'must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)' })
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\S+$/, { error: "must be the webhook endpoint's signing secret (whsec_…)" })
      .optional(),
    // Optional: with it the browser goes to Checkout through Stripe.js's redirect helper, else by URL.
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_(test|live)_\S+$/, { error: 'must be a Stripe publishable key (pk_test_… or pk_live_…)' })
      .optional(),
    STRIPE_PRICE_MONTHLY: z
      .string()
      .regex(/^price_\w+$/, { error: 'must be a Stripe price id (price_…)' })
      .optional(),
    STRIPE_PRICE_YEARLY: z
      .string()
      .regex(/^price_\w+$/, { error: 'must be a Stripe price id (price_…)' })
      .optional(),
    STRIPE_API_BASE: url(['http', 'https']).optional(),
    // A free trial before the first charge (the card is asked up front); 0 = no trial.
    TRIAL_DAYS: z.coerce
      .number({ error: 'must be a whole number of days between 0 and 730' })
      .int({ error: 'must be a whole number of days between 0 and 730' })
      .min(0, { error: 'must be a whole number of days between 0 and 730' })
      .max(730, { error: 'must be a whole number of days between 0 and 730' })
      .default(0),
    PRICE_MONTHLY: money.default(4.9),
    PRICE_YEARLY: money.default(49.9),
    PRICE_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, { error: 'must be a three-letter currency code such as USD' })
      .default('USD'),
    CAPTCHA: z
      .enum(['off', 'altcha', 'recaptcha', 'turnstile'], { error: 'must be off, altcha, recaptcha or turnstile' })
      .default('off'),
    RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
    RECAPTCHA_SECRET: z.string().min(1).optional(),
    RECAPTCHA_VERIFY_URL: url(['http', 'https']).optional(),
    // reCAPTCHA v3 answers a score from 0 (a bot) to 1 (a person); lower scores are refused.
    RECAPTCHA_MIN_SCORE: z.coerce.number({ error: 'must be a number between 0 and 1' }).min(0).max(1).default(0.5),
    TURNSTILE_SITE_KEY: z.string().min(1).optional(),
    TURNSTILE_SECRET: z.string().min(1).optional(),
    TURNSTILE_VERIFY_URL: url(['http', 'https']).optional(),
    // Hostnames a captcha answer may come from (comma-separated); default: APP_URL's host.
    CAPTCHA_HOSTNAMES: z.string().min(1).optional(),
    // Encrypts what the server must read back (TOTP secrets). Unset: generated once into DATA_DIR/secret.key;
    // every instance of one deployment needs the same value.
    SECRET_KEY: z.string().min(32, { error: 'must be at least 32 characters (e.g. openssl rand -hex 32)' }).optional(),
    // Outgoing email (password reset): smtp://user:pass@host:587 or smtps://…:465. Unset: no reset by email.
    SMTP_URL: url(['smtp', 'smtps']).optional(),
    MAIL_FROM: z.string().min(3, { error: 'must be a sender address such as Linkwise <links@example.com>' }).optional(),
    // Failed sign-ins per account (any address) within 15 minutes before that account is paused.
    SIGN_IN_FAILURES_PER_ACCOUNT: whole(1, 1000, 'attempts').default(10),
    FREE_LINK_LIMIT: z.coerce
      .number({ error: 'must be a whole number of links, 1 or more' })
      .int({ error: 'must be a whole number of links, 1 or more' })
      .min(1, { error: 'must be a whole number of links, 1 or more' })
      .default(30),
    SUPPORT_EMAIL: z.email({ error: 'must be an email address' }).default('support@linkwise.example'),
    OPERATOR_NAME: z.string().min(1).default('Linkwise'),
    TRUST_PROXY: trustProxy.default(false),
    RATE_LIMIT_AUTH_PER_MINUTE: whole(1, 1_000_000, 'requests').default(10),
    RATE_LIMIT_SEARCH_PER_MINUTE: whole(1, 1_000_000, 'requests').default(300),
    // A request's headers and body must arrive within this; a client that never finishes is cut off (408).
    REQUEST_TIMEOUT_SECONDS: z.coerce
      .number({ error: 'must be a whole number of seconds between 1 and 3600' })
      .int({ error: 'must be a whole number of seconds between 1 and 3600' })
      .min(1, { error: 'must be a whole number of seconds between 1 and 3600' })
      .max(3600, { error: 'must be a whole number of seconds between 1 and 3600' })
      .default(30),
    // The import upload's own cap (every other body stays at 1 MB).
    IMPORT_MAX_BYTES: z.coerce
      .number({ error: 'must be a whole number of bytes, 1 MB or more' })
      .int({ error: 'must be a whole number of bytes, 1 MB or more' })
      .min(1024 * 1024, { error: 'must be a whole number of bytes, 1 MB or more' })
      .default(100 * 1024 * 1024),
    // Pro automatic backups: how often (days) and how many are kept.
    BACKUP_EVERY_DAYS: whole(1, 365, 'days').default(7),
    BACKUP_KEEP: whole(1, 100, 'backups').default(4),
    // Open connections per client address (behind TRUST_PROXY: requests in progress); 0 turns the cap off.
    MAX_CONNECTIONS_PER_IP: z.coerce
      .number({ error: 'must be a whole number, 0 (no cap) or more' })
      .int({ error: 'must be a whole number, 0 (no cap) or more' })
      .min(0, { error: 'must be a whole number, 0 (no cap) or more' })
      .default(100),
    // Browser extensions allowed to call the API cross-origin, besides the ids of the packages this
    // version builds: comma-separated Chrome/Edge ids (32 letters a–p) or Firefox internal UUIDs.
    EXTENSION_IDS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((id) => id.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z.string().regex(/^([a-p]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/, {
            error: 'must be comma-separated extension ids (32 letters a to p, or a Firefox UUID)',
          }),
        ),
      )
      .default([]),
    // Store pages for the install buttons; without them the buttons lead to /extension/install.
    EXTENSION_CHROME_URL: url(['https']).optional(),
    EXTENSION_EDGE_URL: url(['https']).optional(),
    EXTENSION_FIREFOX_URL: url(['https']).optional(),
    // Link vectors kept in memory for semantic search (512 dims: about 2 KB a link, 200 MB per 100k).
    SEARCH_VECTOR_CACHE_MB: z.coerce
      .number({ error: 'must be a whole number of megabytes, 1 or more' })
      .int({ error: 'must be a whole number of megabytes, 1 or more' })
      .min(1, { error: 'must be a whole number of megabytes, 1 or more' })
      .default(512),
  })
  .superRefine((c, ctx) => {
    // A provider without its keys would refuse everyone: said at start-up instead.
    if (c.CAPTCHA === 'recaptcha' && (!c.RECAPTCHA_SITE_KEY || !c.RECAPTCHA_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['CAPTCHA'],
        message: 'recaptcha needs RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET',
      });
    }
    if (c.CAPTCHA === 'turnstile' && (!c.TURNSTILE_SITE_KEY || !c.TURNSTILE_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['CAPTCHA'],
        message: 'turnstile needs TURNSTILE_SITE_KEY and TURNSTILE_SECRET',
      });
    }
    if (c.BILLING === 'stripe') {
      const missing = STRIPE_REQUIRED.filter((name) => !c[name]);
      if (missing.length > 0) {
        const [first, ...rest] = missing;
        ctx.addIssue({
          code: 'custom',
          path: [first ?? 'BILLING'],
          message: `is required when BILLING=stripe${rest.length ? ` (also missing: ${rest.join(', ')})` : ''}`,
        });
      }
    }
    if (c.ROLE !== 'all' && !c.DATABASE_URL) {
      // api and worker processes meet in a shared database; an embedded file has one process.
      ctx.addIssue({
        code: 'custom',
        path: ['ROLE'],
        message: `${c.ROLE} needs PostgreSQL (DATABASE_URL): with the embedded SQLite database one process does everything, ROLE=all`,
      });
    }
    if (c.ROLE === 'worker' && !c.JOBS_ENABLED) {
      // A worker serves nothing but its health: without jobs it would run and do nothing, silently.
      ctx.addIssue({
        code: 'custom',
        path: ['JOBS_ENABLED'],
        message: 'false leaves a ROLE=worker process nothing to do: leave JOBS_ENABLED on, or run it as ROLE=api',
      });
    }
    if (c.AI_PROVIDER === 'openai' && !c.OPENAI_API_KEY && !c.OPENAI_BASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['OPENAI_API_KEY'],
        message: 'is required when AI_PROVIDER=openai (or set OPENAI_BASE_URL for a local server)',
      });
    }
    if (c.AI_PROVIDER === 'gemini' && !c.GEMINI_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['GEMINI_API_KEY'], message: 'is required when AI_PROVIDER=gemini' });
    }
    refineEmbedding(c, ctx);
  });

/** The variables that choose the remote embedding model (typed apart: the schema is still being built). */
interface EmbeddingVariables {
  OPENAI_EMBEDDING_MODEL?: string | undefined;
  GEMINI_EMBEDDING_MODEL?: string | undefined;
  EMBEDDING_DIMENSIONS?: number | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  GEMINI_API_KEY?: string | undefined;
}

/** The remote embedding model chosen by the environment (null: the offline model). */
export interface RemoteEmbeddingConfig {
  provider: EmbeddingProvider;
  model: string;
  dimensions: number;
  /** Whether `dimensions` is sent with each request (see `sendsDimensions`). */
  sendDimensions: boolean;
}

function embeddingChoice(c: EmbeddingVariables): { provider: EmbeddingProvider; model: string } | null {
  if (c.OPENAI_EMBEDDING_MODEL) return { provider: 'openai', model: c.OPENAI_EMBEDDING_MODEL };
  if (c.GEMINI_EMBEDDING_MODEL) return { provider: 'gemini', model: c.GEMINI_EMBEDDING_MODEL };
  return null;
}

/**
 * One remote embedding provider at most, with what it needs, and a known vector size: search sizes
 * its matrices by it before the first call, and a wrong guess would store unusable vectors.
 */
function refineEmbedding(c: EmbeddingVariables, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (c.OPENAI_EMBEDDING_MODEL && c.GEMINI_EMBEDDING_MODEL) {
    return issue(
      'GEMINI_EMBEDDING_MODEL',
      'cannot be set together with OPENAI_EMBEDDING_MODEL: choose one embedding provider',
    );
  }
  const choice = embeddingChoice(c);
  if (!choice) {
    if (c.EMBEDDING_DIMENSIONS !== undefined) {
      issue(
        'EMBEDDING_DIMENSIONS',
        'applies only to a remote embedding model: set OPENAI_EMBEDDING_MODEL or GEMINI_EMBEDDING_MODEL, or unset it',
      );
    }
    return;
  }
  if (choice.provider === 'openai' && !c.OPENAI_API_KEY && !c.OPENAI_BASE_URL) {
    issue(
      'OPENAI_API_KEY',
      'is required when OPENAI_EMBEDDING_MODEL is set (or set OPENAI_BASE_URL for a local server)',
    );
  }
  if (choice.provider === 'gemini' && !c.GEMINI_API_KEY) {
    issue('GEMINI_API_KEY', 'is required when GEMINI_EMBEDDING_MODEL is set');
  }
  const known = knownModel(choice.provider, choice.model);
  const wanted = c.EMBEDDING_DIMENSIONS;
  if (!known && wanted === undefined) {
    issue(
      'EMBEDDING_DIMENSIONS',
      `is required for embedding model "${choice.model}" (the size of its vectors; known without it: ${knownModelNames(choice.provider).join(', ')})`,
    );
  } else if (known && wanted !== undefined && !known.shortens && wanted !== known.dimensions) {
    issue(
      'EMBEDDING_DIMENSIONS',
      `must be ${known.dimensions} (or unset) for ${choice.model}, which cannot shorten its vectors`,
    );
  } else if (known && wanted !== undefined && wanted > known.dimensions) {
    issue('EMBEDDING_DIMENSIONS', `must be at most ${known.dimensions} for ${choice.model}`);
  }
}

function remoteEmbedding(c: EmbeddingVariables): RemoteEmbeddingConfig | null {
  const choice = embeddingChoice(c);
  if (!choice) return null;
  const dimensions = c.EMBEDDING_DIMENSIONS ?? knownModel(choice.provider, choice.model)?.dimensions;
  if (dimensions === undefined) throw new ConfigError(`Invalid configuration: EMBEDDING_DIMENSIONS is required`);
  return {
    provider: choice.provider,
    model: choice.model,
    dimensions,
    sendDimensions: c.EMBEDDING_DIMENSIONS !== undefined && sendsDimensions(choice.provider, choice.model),
  };
}

export type Config = z.infer<typeof ConfigSchema> & {
  /** Absolute path of the data folder. */
  dataDir: string;
  /** Absolute path of the offline models' folder (MODELS_DIR, default DATA_DIR/models). */
  modelsDir: string;
  /** Public origin used in links the server hands out. */
  appUrl: string;
  poolSize: number;
  version: string;
  /** The remote model for link and query vectors; null: the offline model. */
  remoteEmbedding: RemoteEmbeddingConfig | null;
};

/**
 * Hosts the README's `http://localhost:3000` reaches. Links the server hands out (checkout return,
 * portal return) must come back to the origin the user opened, or the browser arrives signed out.
 */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::']);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Variables whose values must never be echoed back in an error message or log line. */
const SECRET_NAMES = new Set([
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'RECAPTCHA_SECRET',
  'DATABASE_URL',
  'REDIS_URL',
  'METRICS_TOKEN',
  'SECRET_KEY',
  'SMTP_URL',
  'TURNSTILE_SECRET',
]);

/**
 * Parse the environment. Empty strings count as unset, so `.env.example` can be copied as is.
 * Throws a ConfigError whose message is one readable line naming the variable and what is allowed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, version = '0.0.0'): Config {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') cleaned[key] = value.trim();
  }
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'configuration');
    const shown = SECRET_NAMES.has(name) || cleaned[name] === undefined ? '' : ` (got "${cleaned[name]}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${shown}`);
  }
  const c = result.data;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    modelsDir: path.resolve(c.MODELS_DIR ?? path.join(c.DATA_DIR, 'models')),
    appUrl: (c.APP_URL ?? `http://${LOCAL_HOSTS.has(c.HOST) ? 'localhost' : c.HOST}:${c.PORT}`).replace(/\/$/, ''),
    poolSize: c.DATABASE_POOL_SIZE ?? Math.max(2, availableParallelism() * 2),
    version,
    remoteEmbedding: remoteEmbedding(c),
  };
}

/** Read `.env` from the working directory when present (real environment variables win). */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
