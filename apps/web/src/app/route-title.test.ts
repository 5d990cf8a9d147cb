import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { titleFor } from './route-title';

describe('document titles', () => {
  it('names each route, the app after it; the landing page stands alone', () => {
    expect(titleFor('/dashboard')).toBe('Your Links · Linkwise');
    expect(titleFor('/profile/')).toBe('Profile · Linkwise');
    expect(titleFor('/extension/install')).toBe('Browser extension · Linkwise');
    expect(titleFor('/')).toBe('Linkwise: save links, find them again');
    expect(titleFor('/nowhere')).toBe('Page not found · Linkwise');
  });

  it('names every route the router serves', async () => {
    // The tests run from the repository's root.
    const source = await readFile(path.join(process.cwd(), 'apps/web/src/app/router.tsx'), 'utf8');
    const paths = [...source.matchAll(/path: '([^']+)'/g)].map((m) => m[1]!).filter((p) => p !== '*');
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect(titleFor(path), path).not.toBe('Page not found · Linkwise');
  });
});
