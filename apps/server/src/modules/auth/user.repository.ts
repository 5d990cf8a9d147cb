import { sha256 } from '../../lib/ids.js';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { AuthTokensTable, DB, UserRow, UsersTable } from '../../db/schema.js';
import type { Engine } from '../../db/database.js';
import type { Actor } from '../../platform/actor.js';
import { forgetWords, wordsOfUser } from '../search-index/forget-words.js';

/** The sign-in throttle's key for an email as typed (lower-cased): the email itself is not stored. */
export const signInThrottleKey = (email: string): string => sha256(`sign-in:${email.toLowerCase()}`);

/** Users and their device tokens. */
export class UserRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine = 'sqlite',
  ) {}

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
  async findActor(tokenHash: string): Promise<(Actor & { lastUsedAt: number; expiresAt: number | null }) | undefined> {
    const row = await this.db
      .selectFrom('auth_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('subscriptions as s', 's.user_id', 'u.id')
      // Every token column by name-less select: a database not yet migrated to API tokens still signs in.
      .selectAll('t')
      .select([
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
      tokenId: row.id,
      lastUsedAt: Number(row.last_used_at),
      tokenKind: row.kind,
      scope: row.scope ?? null,
      expiresAt: row.expires_at === null || row.expires_at === undefined ? null : Number(row.expires_at),
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

  findById(userId: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  }

  async setPassword(userId: string, passwordHash: string, now: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', userId)
      .execute();
  }

  listTokens(userId: string): Promise<Selectable<AuthTokensTable>[]> {
    return this.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('last_used_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Deletes one of the user's tokens of the given kinds; false when there is none with that id. */
  async deleteOwnToken(userId: string, tokenId: string, kinds: AuthTokensTable['kind'][]): Promise<boolean> {
    const result = await this.db
      .deleteFrom('auth_tokens')
      .where('id', '=', tokenId)
      .where('user_id', '=', userId)
      .where('kind', 'in', kinds)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Signs out the user's devices (or every token with `includeApi`) except `keep`. */
  async deleteTokensExcept(userId: string, keep: string | undefined, includeApi: boolean): Promise<void> {
    let query = this.db.deleteFrom('auth_tokens').where('user_id', '=', userId);
    if (keep) query = query.where('id', '!=', keep);
    if (!includeApi) query = query.where('kind', '!=', 'api');
    await query.execute();
  }

  /** Up to `limit` accounts' sealed TOTP secrets (to check the server key still opens them). */
  async sealedTotpSecrets(limit: number): Promise<{ id: string; sealed: string }[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'totp_secret'])
      .where('totp_secret', 'is not', null)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, sealed: r.totp_secret! }));
  }

  async setPendingTotp(userId: string, sealed: string | null): Promise<void> {
    await this.db.updateTable('users').set({ totp_pending_secret: sealed }).where('id', '=', userId).execute();
  }

  /** Turns 2FA on with the confirmed secret and replaces the recovery codes, in one transaction. */
  async enableTotp(userId: string, sealed: string, step: number, codeHashes: string[], now: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('users')
        .set({ totp_secret: sealed, totp_pending_secret: null, totp_enabled_at: now, totp_last_step: step })
        .where('id', '=', userId)
        .execute();
      await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await tx
        .insertInto('recovery_codes')
        .values(codeHashes.map((code_hash, i) => ({ id: `${userId}:${i}`, user_id: userId, code_hash, used_at: null })))
        .execute();
    });
  }

  async disableTotp(userId: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null })
        .where('id', '=', userId)
        .execute();
      await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    });
  }

  /** Compare-and-set: true only for the first request to present a code of a step after the last one. */
  async claimTotpStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Marks a recovery code used; true only the first time. */
  async useRecoveryCode(userId: string, codeHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertPasswordReset(row: Insertable<DB['password_resets']>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      // Only the newest link works: asking again retires the previous one.
      await tx.deleteFrom('password_resets').where('user_id', '=', row.user_id).execute();
      await tx.insertInto('password_resets').values(row).execute();
    });
  }

  /** Consumes a reset token (deleted whether or not it is still valid); its user id when it was. */
  async takePasswordReset(tokenHash: string, now: number): Promise<string | undefined> {
    const row = await this.db
      .deleteFrom('password_resets')
      .where('token_hash', '=', tokenHash)
      .returning(['user_id', 'expires_at'])
      .executeTakeFirst();
    return row && Number(row.expires_at) > now ? row.user_id : undefined;
  }

  /** Failed sign-ins for `key` in the window that started at or after `since`, and when it started. */
  async signInFailures(key: string, since: number): Promise<{ count: number; windowStart: number }> {
    const row = await this.db
      .selectFrom('sign_in_failures')
      .select(['failures', 'window_start'])
      .where('key', '=', key)
      .executeTakeFirst();
    const windowStart = Number(row?.window_start ?? 0);
    return row && windowStart >= since ? { count: row.failures, windowStart } : { count: 0, windowStart: since };
  }

  /** Counts a failure: a window older than `since` starts again at one. */
  async recordSignInFailure(key: string, now: number, since: number): Promise<void> {
    await this.db
      .insertInto('sign_in_failures')
      .values({ key, failures: 1, window_start: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql<number>`case when sign_in_failures.window_start < ${since} then 1 else sign_in_failures.failures + 1 end`,
          window_start: sql<number>`case when sign_in_failures.window_start < ${since} then ${now} else sign_in_failures.window_start end`,
        }),
      )
      .execute();
  }

  async clearSignInFailures(key: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failures').where('key', '=', key).execute();
  }

  /**
   * Removes the user and, by the foreign keys' cascades, every row that names them; jobs name users
   * only inside their JSON payload, so those that are not running go too (a running one is asked to stop).
   */
  async deleteUser(userId: string, email: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      // The search index is defined in SQL of its own; its helpers take an untyped handle.
      const untyped = tx as unknown as Kysely<unknown>;
      const words = await wordsOfUser(untyped, this.engine, userId);
      await tx.deleteFrom('sign_in_failures').where('key', '=', signInThrottleKey(email)).execute();
      const mentions = `%"userId":"${userId.replace(/[%_\\]/g, '')}"%`;
      await tx.deleteFrom('jobs').where('payload', 'like', mentions).where('status', '!=', 'running').execute();
      await tx.updateTable('jobs').set({ cancel_requested: 1 }).where('payload', 'like', mentions).execute();
      // Links first: through the users cascade PostgreSQL may delete the tags first, and each tag's
      // cascade to link_tags then has no index to use (a 3,000-link account took over a minute).
      await tx.deleteFrom('links').where('user_id', '=', userId).execute();
      await tx.deleteFrom('users').where('id', '=', userId).execute();
      await forgetWords(untyped, this.engine, words);
    });
  }
}
