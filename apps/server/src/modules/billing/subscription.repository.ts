import type { Kysely } from 'kysely';
import type { DB, SubscriptionRow } from '../../db/schema.js';
import type { Selectable } from 'kysely';
import type { CheckoutSessionsTable } from '../../db/schema.js';

export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;

/** Subscriptions, checkout/portal sessions and the processed-event ledger. */
export class SubscriptionRepository {
  constructor(private readonly db: Kysely<DB>) {}

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
