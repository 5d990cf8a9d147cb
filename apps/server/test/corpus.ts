import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The page corpus: `LINKWISE_CORPUS_DIR`, by default `../shared/corpus` beside the repository. */
export const CORPUS_DIR =
  process.env.LINKWISE_CORPUS_DIR ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpus');

export interface CorpusPage {
  name: string;
  html: Buffer;
  expected: {
    sourceUrl: string;
    title: string | null;
    description: string | null;
    author: string | null;
    date: string | null;
    image: string | null;
    lang: string | null;
    publisher: string | null;
    url: string | null;
  };
}

/**
 * Loads the corpus, or returns null after a loud skip line. Under CI=true a missing corpus fails
 * the run, so CI proves the corpus suites ran.
 */
export function loadCorpus(): CorpusPage[] | null {
  const pages = path.join(CORPUS_DIR, 'pages');
  if (!existsSync(pages)) {
    const why = `SKIPPED corpus suites: no page corpus at ${pages} (set LINKWISE_CORPUS_DIR)`;
    if (process.env.CI === 'true') throw new Error(`${why}; CI=true does not allow skipping`);
    console.warn(`\n${'!'.repeat(80)}\n${why}\n${'!'.repeat(80)}\n`);
    return null;
  }
  return readdirSync(pages)
    .sort()
    .map((name) => ({
      name,
      html: readFileSync(path.join(pages, name, 'input.html')),
      expected: JSON.parse(readFileSync(path.join(pages, name, 'expected.json'), 'utf8')) as CorpusPage['expected'],
    }));
}

/** Serves every page at `/<name>/` on 127.0.0.1, as the browser received it. */
export async function serveCorpus(
  pages: CorpusPage[],
): Promise<{ url: (name: string) => string; close: () => Promise<void>; server: Server }> {
  const byName = new Map(pages.map((p) => [p.name, p]));
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('/')[1] ?? '');
    const page = byName.get(name);
    if (!page) {
      res.statusCode = 404;
      return res.end('not found');
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
