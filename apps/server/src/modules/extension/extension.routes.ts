import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTENSION_DOWNLOADS, routes, type ExtensionInfoResponse } from '@linkwise/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { AddRoute } from '../../http/route-adapter.js';

/** The extension's build output (apps/extension/dist), found relative to this file in src/ and dist/. */
export const EXTENSION_DIST = fileURLToPath(new URL('../../../../extension/dist/', import.meta.url));

const downloadPath = (file: string) => `/extension/download/${file}`;

/** Which packages this server can hand out: only what the build actually produced. */
function downloads(dist: string): ExtensionInfoResponse['downloads'] {
  const offered = (file: string) => (existsSync(path.join(dist, file)) ? downloadPath(file) : null);
  return { chrome: offered(EXTENSION_DOWNLOADS.chrome), firefox: offered(EXTENSION_DOWNLOADS.firefox) };
}

/**
 * Store pages for the install buttons and the zips for loading the extension by hand, which lets a
 * self-hosted server offer the very build that matches it.
 */
export function extensionRoutes(app: FastifyInstance, add: AddRoute, config: Config, dist = EXTENSION_DIST): void {
  add(routes.extensionInfo, () =>
    Promise.resolve({
      stores: {
        chrome: config.EXTENSION_CHROME_URL ?? null,
        edge: config.EXTENSION_EDGE_URL ?? null,
        firefox: config.EXTENSION_FIREFOX_URL ?? null,
      },
      downloads: downloads(dist),
    }),
  );
  for (const file of Object.values(EXTENSION_DOWNLOADS)) {
    app.get(downloadPath(file), { schema: { hide: true } }, (_request, reply) => {
      const full = path.join(dist, file);
      if (!existsSync(full)) {
        return reply
          .code(404)
          .type('application/json')
          .send({ error: 'This server has no extension package. Run `npm run build`.', code: 'NOT_FOUND' });
      }
      return reply
        .type('application/zip')
        .header('content-length', statSync(full).size)
        .header('content-disposition', `attachment; filename="${file}"`)
        .header('cache-control', 'no-cache')
        .send(createReadStream(full));
    });
  }
}
