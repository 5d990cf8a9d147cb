import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { ConfigError } from '../config.js';

/** Counters kept at most; the oldest window goes first beyond it (a flood of addresses cannot grow memory). */
const MAX_KEYS = 50_000;

/**
 * The in-memory rate-limit store of a process without Redis, one for every route. The plugin's own
 * store gives each route a private map, so routes that share a budget (sign-in and registration, web
 * and extension: one key prefix) would each allow the full count; with Redis the keys already meet.
 * Fixed windows, as the plugin's stores count.
 */
export class SharedMemoryStore implements FastifyRateLimitStore {
  private readonly windows = new Map<string, { count: number; start: number }>();

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.start + timeWindow <= now) {
      window = { count: 0, start: now };
      // Re-inserted at the end, so the map's first key is always the oldest window.
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.start + timeWindow - now });
  }

  child(): FastifyRateLimitStore {
    return this;
  }
}

/**
 * The Redis that several instances share their rate limits through, connected before the server
 * listens: an address where none answers stops the start with one line, instead of every sign-in
 * failing later. Once running, an outage is logged once (and its end), and commands fail at once
 * rather than queueing, so the limits let requests through until Redis is back (`skipOnError`).
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  // Loaded only where REDIS_URL is set.
  const redis = new (await import('ioredis')).Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn({ reason: error.message }, 'Redis cannot be reached: rate limits are not counted until it is back');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis is back: rate limits are counted again');
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const { hostname, port } = new URL(url);
    throw new ConfigError(
      `REDIS_URL: cannot connect to ${hostname}:${port || 6379} (${(error as Error).message}). Start Redis there, or leave REDIS_URL unset to keep rate limits in this process.`,
    );
  }
  return redis;
}
