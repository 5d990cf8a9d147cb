import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';

/** `npm run migrate`: apply pending migrations to the configured database and exit. */
async function run(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 1 });
  try {
    const applied = await migrateToLatest(database);
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
