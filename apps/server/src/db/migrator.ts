import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { ConfigError } from '../config.js';
import type { Database, Engine } from './database.js';
import * as m0001 from './migrations/0001-initial.js';
import * as m0002 from './migrations/0002-link-counts.js';
import * as m0003 from './migrations/0003-vault.js';
import * as m0004 from './migrations/0004-search.js';
import * as m0005 from './migrations/0005-vector-log.js';
import * as m0006 from './migrations/0006-search-rank.js';
import * as m0007 from './migrations/0007-search-words.js';
import * as m0008 from './migrations/0008-search-tiers.js';
import * as m0009 from './migrations/0009-search-inline.js';
import * as m0010 from './migrations/0010-search-words-lock.js';
import * as m0011 from './migrations/0011-platform.js';
import * as m0012 from './migrations/0012-search-schema.js';
import * as m0013 from './migrations/0013-account-security.js';
import * as m0014 from './migrations/0014-imports.js';
import * as m0015 from './migrations/0015-billing-customers.js';
import * as m0016 from './migrations/0016-library.js';
import * as m0017 from './migrations/0017-bulk-index.js';
import * as m0018 from './migrations/0018-category-by-analysis.js';
import * as m0019 from './migrations/0019-model-roles.js';
import * as m0020 from './migrations/0020-clean-tags.js';
import * as m0021 from './migrations/0021-category-other.js';

type EngineMigration = { up(db: Kysely<unknown>, engine: Engine): Promise<void> };

/** Migrations in order. Names sort lexically; never rename or edit one that has shipped. */
const migrations: Record<string, EngineMigration> = {
  '0001-initial': m0001,
  '0002-link-counts': m0002,
  '0003-vault': m0003,
  '0004-search': m0004,
  '0005-vector-log': m0005,
  '0006-search-rank': m0006,
  '0007-search-words': m0007,
  '0008-search-tiers': m0008,
  '0009-search-inline': m0009,
  '0010-search-words-lock': m0010,
  '0011-platform': m0011,
  '0012-search-schema': m0012,
  '0013-account-security': m0013,
  '0014-imports': m0014,
  '0015-billing-customers': m0015,
  '0016-library': m0016,
  '0017-bulk-index': m0017,
  '0018-category-by-analysis': m0018,
  '0019-model-roles': m0019,
  '0020-clean-tags': m0020,
  '0021-category-other': m0021,
};

/** Every migration's name, oldest first. */
export const migrationNames = Object.keys(migrations);

class InCodeProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(migrations)) {
      out[name] = { up: (db) => migration.up(db, this.engine) };
    }
    return Promise.resolve(out);
  }
}

/**
 * Bring the schema up to date. On PostgreSQL, Kysely runs all pending migrations in one
 * transaction while holding a session advisory lock (`pg_advisory_lock`, waited for up to an hour),
 * so two instances starting together cannot both migrate: the second waits, then finds nothing left
 * to do. SQLite serialises writers itself.
 */
export async function migrateToLatest(database: Database): Promise<string[]> {
  await refuseNewerSchema(database);
  const migrator = new Migrator({
    db: database.db,
    provider: new InCodeProvider(database.engine),
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * A database a newer release migrated: this release's code does not know its tables, so it stops with
 * one line (instead of the migrator's "corrupted migrations" and a stack). No table yet: a new database.
 */
async function refuseNewerSchema(database: Database): Promise<void> {
  const { rows } = await sql<{ name: string }>`select name from schema_migrations`
    .execute(database.db)
    .catch(() => ({ rows: [] }));
  const unknown = rows.map((r) => r.name).filter((name) => !(name in migrations));
  if (unknown.length) {
    throw new ConfigError(
      `This database was migrated by a newer release of Linkwise (${unknown.sort().join(', ')}): run that release or a newer one.`,
    );
  }
}
