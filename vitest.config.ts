import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Unit tests live beside the code; HTTP/integration suites in apps/server/test run every route on
// both engines; the web app's component tests run in happy-dom. Workspace packages resolve to their
// TypeScript sources through a custom condition.
export default defineConfig({
  resolve: { conditions: ['@linkwise/source'] },
  ssr: { resolve: { conditions: ['@linkwise/source'] } },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/**/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
        },
      },
      {
        extends: true,
        // The extension's pure logic; its browser behaviour is proven by the e2e extension suites.
        define: { __BROWSER__: JSON.stringify('chrome') },
        test: { name: 'extension', include: ['apps/extension/src/**/*.test.ts'], environment: 'happy-dom' },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
    ],
  },
});
