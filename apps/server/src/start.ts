// The server: configuration, database, migrations, the app, graceful shutdown (started by main.ts).
import { readFileSync } from 'node:fs';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import type { Database } from './db/database.js';
import { listenProblem, openMigrated } from './startup-errors.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

async function main(): Promise<void> {
  loadDotEnv();
  let config;
  try {
    config = loadConfig(process.env, version);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let database: Database;
  try {
    ({ database } = await openMigrated(config, config.poolSize));
  } catch (error) {
    // A database that cannot be reached or a data folder that cannot be written: one line, as above.
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let app;
  try {
    app = await buildApp({ config, database });
  } catch (error) {
    // Settings only the provider can check (a Stripe price that does not exist): one line, as above.
    if (error instanceof ConfigError) {
      console.error(error.message);
      await database.close();
      process.exit(1);
    }
    throw error;
  }

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish (up to 10 s), then close the DB.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
  });

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    const problem = listenProblem(error, { host: config.HOST, port: config.PORT });
    if (!problem) throw error;
    console.error(problem);
    await app.close();
    await database.close();
    process.exit(1);
  }
  // A worker answers only /api/health there: the line says so rather than suggest an address to open.
  const serving = config.ROLE === 'worker' ? `worker, health on port ${config.PORT}` : `on ${config.appUrl}`;
  app.log.info(`Linkwise ${version} ${serving} (${database.describe}, role ${config.ROLE}, billing ${config.BILLING})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
