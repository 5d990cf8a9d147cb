import { defineConfig } from 'vitest/config';

// Unit tests live beside the code; HTTP/integration suites in apps/server/test run every route on
// both engines. Workspace packages resolve to their TypeScript sources through a custom condition.
export default defineConfig({
  resolve: { conditions: ['@linkwise/source'] },
  ssr: { resolve: { conditions: ['@linkwise/source'] } },
  test: {
    include: ['packages/**/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['apps/server/test/global-setup.ts'],
  },
});
