import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import ipaddr from 'ipaddr.js';

/** An over-cap connection gets this long to send its request before it is closed. */
const OVER_CAP_IDLE_MS = 5_000;

/**
 * What a cap counts by: an IPv4 address, or an IPv6 address's /64 (one host or home usually holds
 * a whole /64, so counting single IPv6 addresses would cap nobody).
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

/** Counts per key; a key leaves the map when its count is back to 0. */
class Counter {
  private counts = new Map<string, number>();
  add(key: string): number {
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n;
  }
  remove(key: string): void {
    const n = (this.counts.get(key) ?? 1) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
  }
}

function refuse(reply: FastifyReply): FastifyReply {
  reply.log.info({ address: addressKey(reply.request.ip) }, 'connection cap reached');
  return reply.code(429).header('retry-after', '5').type('application/json').send({
    error: 'Too many connections from your address. Please wait a moment and try again.',
    code: 'RATE_LIMITED',
  });
}

/**
 * Caps what one client address holds at once (MAX_CONNECTIONS_PER_IP; 0: no cap), so that one
 * address cannot take every socket the process has.
 *
 * - Direct (TRUST_PROXY=false): open TCP connections per socket address. A connection over the cap
 *   is answered 429 with `Connection: close` once its request body has been read (closing earlier
 *   could reset the answer away), and closed after OVER_CAP_IDLE_MS if it sends nothing.
 * - Behind a proxy (TRUST_PROXY=true) every socket comes from the proxy, which also reuses its
 *   connections for many clients: the cap then counts each client's requests in progress, by the
 *   forwarded address, and answers the excess 429 on the proxy's connection without closing it.
 *   Capping the clients' connections themselves is the proxy's job (nginx `limit_conn`).
 */
export function installConnectionLimits(app: FastifyInstance, options: { max: number; trustProxy: boolean }): void {
  const { max, trustProxy } = options;
  if (max <= 0) return;
  const counter = new Counter();
  const overCap = new WeakSet<object>();

  if (trustProxy) {
    app.addHook('onRequest', (request, reply, done) => {
      const key = addressKey(request.ip);
      if (counter.add(key) > max) overCap.add(request);
      reply.raw.once('close', () => counter.remove(key));
      done();
    });
  } else {
    app.server.on('connection', (socket: Socket) => {
      const key = addressKey(socket.remoteAddress ?? '');
      socket.once('close', () => counter.remove(key));
      if (counter.add(key) > max) {
        overCap.add(socket);
        socket.setTimeout(OVER_CAP_IDLE_MS);
      }
    });
  }
  // Answered once the body is in (and after the CORS and security headers' hooks).
  app.addHook('preValidation', (request, reply, done) => {
    if (overCap.has(request)) return void refuse(reply);
    if (overCap.has(request.raw.socket)) return void refuse(reply.header('connection', 'close'));
    done();
  });
}
