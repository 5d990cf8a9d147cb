import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Types whose bodies compress well (the web app's files and the API's JSON). */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json)|image\/svg\+xml)/i;

/** Adds `accept-encoding` to Vary once (lower case, as @fastify/compress looks for it). */
function varyOnEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const values = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.some((v) => v.toLowerCase() === 'accept-encoding' || v === '*')) return;
  void reply.header('vary', [...values, 'accept-encoding'].join(', '));
}

/**
 * Compression by Accept-Encoding (decision record 0007). The web app's files are compressed at build
 * time (`.br`/`.gz` beside each file, served by @fastify/static's `preCompressed`); everything else
 * of a compressible type over 1 kB (JSON lists, search results) is compressed per response here,
 * brotli at quality 4 or gzip. A response that already has a Content-Encoding is left alone, and a
 * client that sends no Accept-Encoding gets identity.
 *
 * Every compressible response says `Vary: Accept-Encoding`, also when it went out uncompressed
 * (too small, or not asked for): a shared cache must not hand one client's encoding to another.
 * Request bodies are accepted uncompressed only; a compressed one is refused with 415.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // On two cores the library would put anything over 8 kB through a zlib stream per response,
    // which costs far more than the compression itself (bench/RESULTS.md); one call is cheaper, and
    // the API's JSON stays well under this size.
    syncThreshold: 256 * 1024,
    requestEncodings: ['identity'],
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (reply.hasHeader('content-encoding') || (typeof type === 'string' && COMPRESSIBLE.test(type))) {
      varyOnEncoding(reply);
    }
    done(null, payload);
  });
}
