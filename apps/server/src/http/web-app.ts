import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** The built React app (apps/web/dist), found relative to this file in both src/ and dist/. */
export const WEB_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/** Vite's output folder: every file in it has a content hash in its name. */
const isHashed = (filePath: string) => path.relative(WEB_DIST, filePath).startsWith(`assets${path.sep}`);

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Linkwise</title>
<body style="font-family:system-ui;margin:3rem"><h1>Linkwise</h1>
<p>The API is running, but the web app has not been built. Run <code>npm run build</code>.</p></body></html>`;

/**
 * Serves the web app's files (API.md "Platform"): hashed assets are cached for a year as immutable,
 * index.html is revalidated on every visit, and each file goes out as its build-time `.br` or `.gz`
 * sibling when the client accepts it (compression.ts adds `Vary`). Unknown non-API GETs answer
 * index.html so client-side routes work on reload; a missing file under /assets/ is a plain 404
 * (a stale page asking for a chunk of an older build must not get HTML back as JavaScript), and
 * unknown /api paths answer the contract's JSON 404.
 */
export async function serveWebApp(app: FastifyInstance): Promise<void> {
  const built = existsSync(`${WEB_DIST}index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The siblings are found by preCompressed; they are not routes of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      // @fastify/send's own Cache-Control (public, max-age=0) would overwrite the one set below.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader('cache-control', isHashed(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '';
    if (urlPath.startsWith('/api/') || urlPath === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ error: 'Not found', code: 'NOT_FOUND' });
    }
    if (urlPath.startsWith('/assets/')) {
      return reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');
    }
    if (!built) return reply.type('text/html').send(NOT_BUILT);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
