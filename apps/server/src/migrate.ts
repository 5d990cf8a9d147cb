import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { checkDatabaseReachable, databaseProblem } from './startup-errors.js';

/** `npm run migrate`: apply pending migrations to the configured database and exit. */
async function run(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  let database;
  try {
    database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 1 });
    if (config.DATABASE_URL) await checkDatabaseReachable(config.DATABASE_URL);
    const applied = await migrateToLatest(database);
    console.log(
      applied.length ? `Applied ${applied.join(', ')} to ${database.describe}` : `${database.describe} is up to date`,
    );
  } catch (error) {
    const problem = databaseProblem(error, {
      database: database?.describe ?? (config.DATABASE_URL ? 'postgresql:' : 'sqlite:'),
      dataDir: config.dataDir,
    });
    throw problem ? new ConfigError(problem) : error;
  } finally {
    await database?.close();
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
