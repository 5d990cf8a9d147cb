import {
  AccountMessages,
  Messages,
  type ApiToken,
  type ApiTokenCreate,
  type ChangePassword,
  type Session,
} from '@linkwise/contract';
import { AppError, notFound } from '../../errors.js';
import { DAY_MS, toIso, toIsoOrNull, type Clock } from '../../lib/clock.js';
import { newId, newSecret, sha256 } from '../../lib/ids.js';
import type { Actor } from '../../platform/actor.js';
import type { AuthService } from './auth.service.js';
import type { CaptchaVerifier } from './captcha.js';
import type { Mailer } from './mailer.js';
import { hashPassword, verifyPassword } from './password.js';
import { assertAcceptablePassword } from './password-policy.js';
import type { SecondFactor } from './second-factor.js';
import type { UserRepository } from './user.repository.js';

/** A reset link works this long, once. */
export const RESET_TOKEN_TTL_MS = 30 * 60_000;

/** What clean-up steps outside the database learn about a deleted account. */
export interface DeletedAccount {
  userId: string;
  email: string;
  username: string;
  /** The payment provider's customer, when the account had one. */
  providerCustomerId: string | null;
}

/**
 * A step run after an account's rows are gone (files on disk, the payment provider's customer).
 * A failing step is logged; the deletion stands.
 */
export type AccountDeletionStep = (account: DeletedAccount) => Promise<void>;

export interface AccountDeps {
  users: UserRepository;
  auth: AuthService;
  secondFactor: SecondFactor;
  captcha: CaptchaVerifier;
  mailer: Mailer | undefined;
  clock: Clock;
  appUrl: string;
  operatorName: string;
  /** Run before the rows go; one that throws stops the deletion (a subscription must stop charging first). */
  beforeAccountDeleted: ((userId: string) => Promise<void>)[];
  onAccountDeleted: AccountDeletionStep[];
  log: { error: (context: object, message: string) => void };
}

/** Sessions, password change and reset, two-factor sign-in, API tokens, account deletion. */
export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  get passwordResetOffered(): boolean {
    return this.deps.mailer !== undefined;
  }

  private async userRow(actor: Actor) {
    const row = await this.deps.users.findById(actor.userId);
    if (!row) throw new AppError('UNAUTHENTICATED', Messages.authenticationRequired);
    return row;
  }

  /** Wrong password → 401 INVALID_CREDENTIALS, with `field` named for the form. */
  private async checkPassword(passwordHash: string, password: string, field: string): Promise<void> {
    if (!(await verifyPassword(passwordHash, password))) {
      throw new AppError('INVALID_CREDENTIALS', AccountMessages.wrongPassword, {
        fields: { [field]: AccountMessages.wrongPassword },
      });
    }
  }

  async securityOverview(actor: Actor): Promise<{ twoFactorEnabled: boolean; recoveryCodesLeft: number }> {
    const row = await this.userRow(actor);
    return {
      twoFactorEnabled: row.totp_secret !== null,
      recoveryCodesLeft: row.totp_secret ? await this.deps.users.recoveryCodesLeft(actor.userId) : 0,
    };
  }

  async listSessions(actor: Actor): Promise<{ data: Session[] }> {
    const rows = await this.deps.users.listTokens(actor.userId);
    return {
      data: rows.map((t) => ({
        id: t.id,
        kind: t.kind,
        name: t.name,
        userAgent: t.user_agent,
        createdAt: toIso(Number(t.created_at)),
        lastUsedAt: toIso(Number(t.last_used_at)),
        current: t.id === actor.tokenId,
      })),
    };
  }

  async revokeSession(actor: Actor, id: string): Promise<void> {
    if (!(await this.deps.users.deleteOwnToken(actor.userId, id, ['web', 'extension', 'api'])))
      throw notFound('Session');
  }

  /** Signs out every other device; API tokens stay (each is revoked on its own). */
  async revokeOtherSessions(actor: Actor): Promise<void> {
    await this.deps.users.deleteTokensExcept(actor.userId, actor.tokenId, false);
  }

  async changePassword(actor: Actor, input: ChangePassword): Promise<void> {
    const row = await this.userRow(actor);
    await this.checkPassword(row.password_hash, input.currentPassword, 'currentPassword');
    assertAcceptablePassword(input.newPassword, 'newPassword');
    await this.deps.users.setPassword(actor.userId, await hashPassword(input.newPassword), this.deps.clock.now());
    await this.deps.users.deleteTokensExcept(actor.userId, actor.tokenId, false);
  }

  /**
   * Emails a single-use link when the address has an account; the answer and the work done in the
   * request are the same either way (the mail is sent after the answer).
   */
  async forgotPassword(input: { email: string; recaptchaToken?: string | undefined }, ip: string): Promise<void> {
    const mailer = this.deps.mailer;
    if (!mailer) throw new AppError('NOT_FOUND', AccountMessages.resetUnavailable);
    if (!(await this.deps.captcha.verify(input.recaptchaToken, 'login', ip))) {
      throw new AppError('RECAPTCHA_FAILED', Messages.captchaMissing);
    }
    const row = await this.deps.users.findByEmail(input.email.toLowerCase());
    if (!row) return;
    const token = newSecret();
    const now = this.deps.clock.now();
    await this.deps.users.insertPasswordReset({
      id: newId(),
      user_id: row.id,
      token_hash: sha256(token),
      created_at: now,
      expires_at: now + RESET_TOKEN_TTL_MS,
    });
    const link = `${this.deps.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
    const name = this.deps.operatorName;
    void mailer
      .send({
        to: row.email,
        subject: `Reset your ${name} password`,
        text: `Hello ${row.username},\n\nSomeone (hopefully you) asked to reset the password of your ${name} account.\nOpen this link within 30 minutes to choose a new one:\n\n${link}\n\nIf you did not ask for this, ignore this email: your password stays as it is.\n`,
        html: `<p>Hello ${escapeHtml(row.username)},</p><p>Someone (hopefully you) asked to reset the password of your ${escapeHtml(name)} account. Open this link within 30 minutes to choose a new one:</p><p><a href="${escapeHtml(link)}">Choose a new password</a></p><p>If you did not ask for this, ignore this email: your password stays as it is.</p>`,
      })
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'could not send the password reset email'));
  }

  /** Sets the password with a reset token (used up either way); every token of the user is revoked. */
  async resetPassword(input: { token: string; password: string }): Promise<void> {
    // Checked first: a refused password must not use up the link.
    assertAcceptablePassword(input.password);
    const userId = await this.deps.users.takePasswordReset(sha256(input.token), this.deps.clock.now());
    if (!userId) {
      throw new AppError('VALIDATION_ERROR', AccountMessages.resetInvalid, {
        fields: { token: AccountMessages.resetInvalid },
      });
    }
    await this.deps.users.setPassword(userId, await hashPassword(input.password), this.deps.clock.now());
    await this.deps.users.deleteTokensExcept(userId, undefined, true);
  }

  async setupTwoFactor(actor: Actor) {
    const row = await this.userRow(actor);
    if (row.totp_secret) throw new AppError('INVALID_STATE', 'Two-factor authentication is already enabled');
    return this.deps.secondFactor.setup({ id: row.id, email: row.email });
  }

  async enableTwoFactor(actor: Actor, code: string): Promise<{ recoveryCodes: string[] }> {
    const row = await this.userRow(actor);
    if (row.totp_secret) throw new AppError('INVALID_STATE', 'Two-factor authentication is already enabled');
    if (!row.totp_pending_secret) throw new AppError('INVALID_STATE', 'Start the set-up again to get a new code');
    const recoveryCodes = await this.deps.secondFactor.enable(row, code);
    if (!recoveryCodes)
      throw new AppError('TOTP_INVALID', AccountMessages.totpInvalid, {
        fields: { code: AccountMessages.totpInvalid },
      });
    return { recoveryCodes };
  }

  async disableTwoFactor(actor: Actor, input: { password: string; code: string }): Promise<void> {
    const row = await this.userRow(actor);
    await this.checkPassword(row.password_hash, input.password, 'password');
    if (!row.totp_secret) return;
    if (!(await this.deps.secondFactor.accept(row, input.code, { recovery: true }))) {
      throw new AppError('TOTP_INVALID', AccountMessages.totpInvalid, {
        fields: { code: AccountMessages.totpInvalid },
      });
    }
    await this.deps.users.disableTotp(actor.userId);
  }

  async listApiTokens(actor: Actor): Promise<{ data: ApiToken[] }> {
    const rows = await this.deps.users.listTokens(actor.userId);
    return { data: rows.filter((t) => t.kind === 'api').map(toApiToken) };
  }

  async createApiToken(actor: Actor, input: ApiTokenCreate): Promise<ApiToken & { token: string }> {
    const token = `lw_${newSecret()}`;
    const now = this.deps.clock.now();
    const row = {
      id: newId(),
      user_id: actor.userId,
      token_hash: sha256(token),
      kind: 'api' as const,
      name: input.name,
      user_agent: null,
      created_at: now,
      scope: input.scope,
      expires_at: input.expiresInDays ? now + input.expiresInDays * DAY_MS : null,
    };
    await this.deps.users.insertToken(row);
    return { ...toApiToken({ ...row, last_used_at: now }), token };
  }

  async revokeApiToken(actor: Actor, id: string): Promise<void> {
    if (!(await this.deps.users.deleteOwnToken(actor.userId, id, ['api']))) throw notFound('Token');
  }

  /**
   * Deletes the account at once: password (and a code with 2FA) required; the user's rows go in one
   * transaction, then the clean-up steps outside the database run.
   */
  async deleteAccount(actor: Actor, input: { password: string; code?: string | undefined }): Promise<void> {
    const row = await this.userRow(actor);
    await this.checkPassword(row.password_hash, input.password, 'password');
    if (row.totp_secret) {
      if (!input.code)
        throw new AppError('TOTP_REQUIRED', AccountMessages.totpRequired, {
          fields: { code: AccountMessages.totpRequired },
        });
      if (!(await this.deps.secondFactor.accept(row, input.code, { recovery: true }))) {
        throw new AppError('TOTP_INVALID', AccountMessages.totpInvalid, {
          fields: { code: AccountMessages.totpInvalid },
        });
      }
    }
    const deleted: DeletedAccount = {
      userId: row.id,
      email: row.email,
      username: row.username,
      providerCustomerId: actor.subscription?.provider_customer_id ?? null,
    };
    for (const step of this.deps.beforeAccountDeleted) await step(row.id);
    await this.deps.users.deleteUser(row.id, row.email);
    for (const step of this.deps.onAccountDeleted) {
      await step(deleted).catch((error: unknown) =>
        this.deps.log.error({ err: error, userId: row.id }, 'an account clean-up step failed'),
      );
    }
  }
}

function toApiToken(t: {
  id: string;
  name: string;
  scope: 'read' | 'write' | null;
  created_at: number;
  last_used_at: number;
  expires_at: number | null;
}): ApiToken {
  return {
    id: t.id,
    name: t.name,
    scope: t.scope ?? 'read',
    createdAt: toIso(Number(t.created_at)),
    lastUsedAt: toIso(Number(t.last_used_at)),
    expiresAt: toIsoOrNull(t.expires_at === null ? null : Number(t.expires_at)),
  };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
