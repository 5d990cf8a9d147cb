import type { FastifyInstance, FastifyRequest } from 'fastify';

const leaveKey = Symbol('leave-in-flight');

declare module 'fastify' {
  interface FastifyRequest {
    [leaveKey]?: () => void;
  }
}

/**
 * Counts requests whose work is not finished, so shutdown can close the database only after the
 * last handler let go of it. A response normally ends the count (onResponse); when the client has
 * already gone, Fastify sends nothing and fires no onResponse, so the handler's own end does.
 *
 * While draining, responses carry `Connection: close`: Node's server.close() only reaps sockets
 * that are idle when it is called, so a keep-alive socket that finishes its request afterwards
 * would otherwise hold the shutdown until the keep-alive timeout.
 */
export class InFlight {
  private count = 0;
  private draining = false;
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  install(app: FastifyInstance): void {
    app.addHook('onRequest', (request, _reply, done) => {
      this.count += 1;
      let left = false;
      request[leaveKey] = () => {
        if (left) return;
        left = true;
        this.count -= 1;
        if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
      };
      done();
    });
    app.addHook('onSend', (_request, reply, _payload, done) => {
      if (this.draining) void reply.header('connection', 'close');
      done();
    });
    app.addHook('onResponse', (request, _reply, done) => {
      request[leaveKey]?.();
      done();
    });
  }

  /** Call when a handler finished but its client is gone (no response will be sent). */
  static handlerDone(request: FastifyRequest): void {
    if (request.raw.destroyed || request.raw.socket?.destroyed) request[leaveKey]?.();
  }

  /**
   * Starts shutdown: resolves true when nothing is in flight, or false after `timeoutMs` (a stuck
   * request must not block shutdown). New requests are already refused by Fastify with 503.
   */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(wake);
    });
  }
}
