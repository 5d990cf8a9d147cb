import type { FastifyInstance } from 'fastify';

const trackKey = Symbol('in-flight');

/**
 * Where a request is in its lifecycle: `hooks` (onRequest hooks, e.g. the token lookup), `body`
 * (the body is being read: no handler code runs), `work` (validation, handler, error handler) and
 * `sent` (the answer is being written).
 */
type Stage = 'hooks' | 'body' | 'work' | 'sent';

interface Tracked {
  stage: Stage;
  /** The client left before the answer was fully written. */
  gone: boolean;
  leave: () => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    [trackKey]?: Tracked;
  }
  interface FastifyInstance {
    /** Requests whose work is not finished (see InFlight). */
    inFlight: InFlight;
  }
}

/**
 * Counts requests whose work is not finished, so shutdown can close the database only after the
 * last handler let go of it. A request leaves the count when its answer is fully written, or, when
 * its client left first, as soon as no code of its own can still run: at once while its body was
 * being read (Fastify sends nothing and fires no onResponse for it, and its body parser may never
 * finish), and otherwise when its handler or error handler has produced the answer (onSend).
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
    app.decorate<InFlight>('inFlight', this);
    app.addHook('onRequest', (request, reply, done) => {
      // Requests that arrive on kept-alive connections while draining are turned away (a load
      // balancer retries them on another instance), in the contract's body rather than Fastify's.
      if (this.draining) {
        return void reply.code(503).header('retry-after', '5').type('application/json').send({
          error: 'The server is shutting down. Please try again in a moment.',
          code: 'SERVICE_UNAVAILABLE',
        });
      }
      this.count += 1;
      let left = false;
      const tracked: Tracked = {
        stage: 'hooks',
        gone: false,
        leave: () => {
          if (left) return;
          left = true;
          this.count -= 1;
          if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
        },
      };
      request[trackKey] = tracked;
      // 'close' comes after every response: after 'finish' when it was written, alone when the
      // client left before.
      reply.raw.once('close', () => {
        if (reply.raw.writableFinished) return tracked.leave();
        tracked.gone = true;
        if (tracked.stage === 'body' || tracked.stage === 'sent') tracked.leave();
      });
      done();
    });
    // Runs after every onRequest hook: a client that left during them leaves the count here.
    app.addHook('preParsing', (request, _reply, payload, done) => {
      const tracked = request[trackKey];
      if (tracked) {
        tracked.stage = 'body';
        if (tracked.gone) tracked.leave();
      }
      done(null, payload);
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const tracked = request[trackKey];
      if (tracked) tracked.stage = 'work';
      done();
    });
    app.addHook('onSend', (request, reply, _payload, done) => {
      const tracked = request[trackKey];
      if (tracked) {
        tracked.stage = 'sent';
        if (tracked.gone) tracked.leave();
      }
      if (this.draining) void reply.header('connection', 'close');
      done();
    });
  }

  /**
   * Starts shutdown: resolves true when nothing is in flight, or false after `timeoutMs` (a stuck
   * request must not block shutdown). New requests are answered 503 from now on.
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
