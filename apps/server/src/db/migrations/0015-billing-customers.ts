import type { Kysely } from 'kysely';

/**
 * One payment-provider customer per user, created before the first checkout so that every later
 * checkout and the billing portal reuse it, and webhooks find the user from the customer id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_customers')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // When the provider state last applied was read: an older read never overwrites a newer one.
    .addColumn('synced_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('billing_customers_customer')
    .on('billing_customers')
    .columns(['provider', 'customer_id'])
    .unique()
    .execute();
}
