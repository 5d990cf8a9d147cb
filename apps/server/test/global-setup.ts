import { postgresAvailable, TEST_DATABASE_URL } from './pg.js';

/**
 * Decides once per run whether the PostgreSQL suites can run. A skip is printed loudly; under
 * CI=true a missing PostgreSQL fails the run instead, so CI proves both engines were tested.
 */
export default async function setup({ provide }: { provide: (key: 'postgres', value: boolean) => void }) {
  const available = await postgresAvailable();
  if (!available) {
    const why = `SKIPPED postgres suites: no PostgreSQL at ${TEST_DATABASE_URL} (start it, or set TEST_DATABASE_URL)`;
    if (process.env.CI === 'true') throw new Error(`${why}; CI=true does not allow skipping`);
    console.warn(`\n${'!'.repeat(80)}\n${why}\n${'!'.repeat(80)}\n`);
  }
  provide('postgres', available);
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: boolean;
  }
}
