import type { Kysely } from 'kysely';

/** Vault key material: the wrapped vault key and how to derive the key that unwraps it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('vaults')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('kdf_name', 'text', (c) => c.notNull())
    .addColumn('kdf_hash', 'text', (c) => c.notNull())
    .addColumn('iterations', 'integer', (c) => c.notNull())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('iv', 'text', (c) => c.notNull())
    .addColumn('wrapped_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
