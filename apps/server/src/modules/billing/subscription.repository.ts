import type { Kysely, Selectable } from 'kysely';
import type { BillingCustomersTable, CheckoutSessionsTable, DB, SubscriptionRow } from '../../db/schema.js';

export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;

export type BillingCustomerRow = Selectable<BillingCustomersTable>;

/** Subscriptions, payment-provider customers, checkout/portal sessions and the processed-event ledger. */
export class SubscriptionRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The connection this repository runs on (a transaction's inside `transaction`), for the job queue to join. */
  get connection(): Kysely<DB> {
    return this.db;
  }

  /** Runs `fn` in one transaction with a repository bound to it. */
  transaction<T>(fn: (repo: SubscriptionRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new SubscriptionRepository(trx)));
  }

  findCustomer(userId: string): Promise<BillingCustomerRow | undefined> {
    return this.db.selectFrom('billing_customers').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async userForCustomer(provider: 'simulated' | 'stripe', customerId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('billing_customers')
      .select('user_id')
      .where('provider', '=', provider)
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return row?.user_id;
  }

  /**
   * Claims the right to apply a provider state read at `readAt`: false when a state read later was
   * applied already. Inside a transaction the claimed row stays locked until the state is written.
   */
  async claimSync(userId: string, readAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('billing_customers')
      .set({ synced_at: readAt })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('synced_at', 'is', null), eb('synced_at', '<=', readAt)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a user's customer unless one is recorded already; the recorded one is returned. */
  async saveCustomer(row: Omit<BillingCustomerRow, 'synced_at'>): Promise<BillingCustomerRow> {
    await this.db
      .insertInto('billing_customers')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return (await this.findCustomer(row.user_id)) ?? { ...row, synced_at: null };
  }

  async userExists(userId: string): Promise<boolean> {
    return Boolean(await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());
  }

  /** Forgets a user's customer and subscription (the provider side is closed first). */
  async forget(userId: string): Promise<void> {
    await this.db.deleteFrom('billing_customers').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('subscriptions').where('user_id', '=', userId).execute();
  }

  find(userId: string): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async upsert(row: SubscriptionRow): Promise<void> {
    const { user_id: _userId, created_at: _createdAt, ...changes } = row;
    await this.db
      .insertInto('subscriptions')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doUpdateSet(changes))
      .execute();
  }

  async insertSession(row: CheckoutSessionRow): Promise<void> {
    await this.db.insertInto('checkout_sessions').values(row).execute();
  }

  findSession(id: string): Promise<CheckoutSessionRow | undefined> {
    return this.db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Moves an open session to a final state; false when it was not open (double submit). */
  async closeSession(id: string, status: 'completed' | 'canceled'): Promise<boolean> {
    const result = await this.db
      .updateTable('checkout_sessions')
      .set({ status })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records a provider event id; false when it was seen before. Providers deliver events at least
   * once, so this ledger is what makes applying an event idempotent.
   */
  async markEventProcessed(id: string, provider: 'simulated' | 'stripe', type: string, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('payment_events')
      .values({ id, provider, type, processed_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
