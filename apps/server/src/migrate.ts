import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { openMigrated } from './startup-errors.js';

/** `npm run migrate`: apply pending migrations to the configured database and exit. */
async function run(): Promise<void> {
  loadDotEnv();
  const { database, applied } = await openMigrated(loadConfig(), 1);
  try {
    console.log(
      applied.length ? `Applied ${applied.join(', ')} to ${database.describe}` : `${database.describe} is up to date`,
    );
  } finally {
    await database.close();
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
