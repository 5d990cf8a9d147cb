import type { Kysely } from 'kysely';

/**
 * Account security: two-factor sign-in (the TOTP secret encrypted with the server key, the last step
 * accepted so no code is used twice, single-use recovery codes), API tokens (scope and expiry on
 * auth_tokens), password-reset tokens and the per-account sign-in throttle.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();

  await db.schema.alterTable('auth_tokens').addColumn('scope', 'text').execute();
  await db.schema.alterTable('auth_tokens').addColumn('expires_at', 'bigint').execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').columns(['user_id', 'code_hash']).execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

  // Keyed by a hash of the email typed, known or not, so the throttle answers alike for both.
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .execute();
}
