import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** The built React app (apps/web/dist), found relative to this file in both src/ and dist/. */
export const WEB_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Linkwise</title>
<body style="font-family:system-ui;margin:3rem"><h1>Linkwise</h1>
<p>The API is running, but the web app has not been built. Run <code>npm run build</code>.</p></body></html>`;

/**
 * Serves the web app's files; unknown non-API GETs answer index.html so client-side routes work on
 * reload, and unknown /api paths answer the contract's JSON 404.
 */
export async function serveWebApp(app: FastifyInstance): Promise<void> {
  const built = existsSync(`${WEB_DIST}index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      wildcard: false,
      index: false,
      // Hashed assets never change; index.html must always be revalidated.
      setHeaders: (res, filePath) => {
        res.setHeader(
          'cache-control',
          filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/api/') || path === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ error: 'Not found', code: 'NOT_FOUND' });
    }
    if (!built) return reply.type('text/html').send(NOT_BUILT);
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
