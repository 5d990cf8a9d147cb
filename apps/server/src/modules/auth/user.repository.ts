import type { Insertable, Kysely } from 'kysely';
import type { AuthTokensTable, DB, UserRow, UsersTable } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';

/** Users and their device tokens. */
export class UserRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async emailOrUsernameTaken(email: string, usernameKey: string): Promise<{ email: boolean; username: boolean }> {
    const rows = await this.db
      .selectFrom('users')
      .select(['email', 'username_key'])
      .where((eb) => eb.or([eb('email', '=', email), eb('username_key', '=', usernameKey)]))
      .execute();
    return {
      email: rows.some((r) => r.email === email),
      username: rows.some((r) => r.username_key === usernameKey),
    };
  }

  async insert(user: Insertable<UsersTable>): Promise<void> {
    await this.db.insertInto('users').values(user).execute();
  }

  async insertToken(token: Omit<Insertable<AuthTokensTable>, 'last_used_at'>): Promise<void> {
    await this.db
      .insertInto('auth_tokens')
      .values({ ...token, last_used_at: token.created_at })
      .execute();
  }

  /** Resolves a token hash to the acting user and their subscription in one query. */
  async findActor(tokenHash: string): Promise<(Actor & { lastUsedAt: number }) | undefined> {
    const row = await this.db
      .selectFrom('auth_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('subscriptions as s', 's.user_id', 'u.id')
      .select([
        't.id as tokenId',
        't.last_used_at as lastUsedAt',
        'u.id as userId',
        'u.email',
        'u.username',
        'u.created_at as createdAt',
        'u.link_count as linkCount',
        's.provider',
        's.status',
        's.plan',
        's.scheduled_plan',
        's.current_period_end',
        's.cancel_at_period_end',
        's.provider_customer_id',
        's.provider_subscription_id',
        's.created_at as s_created_at',
        's.updated_at as s_updated_at',
      ])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      tokenId: row.tokenId,
      lastUsedAt: row.lastUsedAt,
      userId: row.userId,
      email: row.email,
      username: row.username,
      createdAt: row.createdAt,
      linkCount: Number(row.linkCount),
      subscription:
        row.provider && row.status
          ? {
              user_id: row.userId,
              provider: row.provider,
              status: row.status,
              plan: row.plan ?? null,
              scheduled_plan: row.scheduled_plan ?? null,
              current_period_end: row.current_period_end ?? null,
              cancel_at_period_end: row.cancel_at_period_end ?? 0,
              provider_customer_id: row.provider_customer_id ?? null,
              provider_subscription_id: row.provider_subscription_id ?? null,
              created_at: row.s_created_at ?? 0,
              updated_at: row.s_updated_at ?? 0,
            }
          : undefined,
    };
  }

  async touchToken(tokenId: string, now: number): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
  }

  async deleteToken(tokenId: string): Promise<void> {
    await this.db.deleteFrom('auth_tokens').where('id', '=', tokenId).execute();
  }
}
