import type { FastifyRateLimitStore } from '@fastify/rate-limit';

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
