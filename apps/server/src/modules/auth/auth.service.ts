import { AccountMessages, Messages, type Login, type Register, type User } from '@linkwise/contract';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { DAY_MS, toIso, toIsoOrNull } from '../../lib/clock.js';
import { newId, newSecret, sha256 } from '../../lib/ids.js';
import type { BillingService } from '../billing/billing.service.js';
import type { Actor } from '../../platform/actor.js';
import type { CaptchaVerifier } from './captcha.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import { assertAcceptablePassword } from './password-policy.js';
import type { SecondFactor } from './second-factor.js';
import { signInThrottleKey, type UserRepository } from './user.repository.js';

/** A token unused this long stops working (devices forgotten in a drawer). */
export const TOKEN_IDLE_EXPIRY_MS = 90 * DAY_MS;
/** last_used_at is written at most this often per token, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;
/** Failed sign-ins of one account are counted over this window. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
  kind: 'web' | 'extension';
}

export interface AuthDeps {
  users: UserRepository;
  billing: BillingService;
  captcha: CaptchaVerifier;
  secondFactor: SecondFactor;
  clock: Clock;
  /** Failed sign-ins per account within SIGN_IN_WINDOW_MS before the account's sign-in pauses. */
  maxFailuresPerAccount: number;
}

const usernameKey = (username: string) => username.normalize('NFKC').toLocaleLowerCase('en-US');

/** Registration, sign-in, tokens and the public user object. */
export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  /** The public user object: never a hash, token or vault material. */
  toUser(actor: Pick<Actor, 'userId' | 'email' | 'username' | 'createdAt' | 'subscription'>): User {
    const sub = this.deps.billing.subscriptionOf(actor);
    return {
      id: actor.userId,
      email: actor.email,
      username: actor.username,
      createdAt: toIso(actor.createdAt),
      subscriptionStatus: sub.status,
      subscriptionPlan: sub.plan,
      subscriptionEndDate: toIsoOrNull(sub.periodEnd),
      linkLimit: this.deps.billing.linkLimitOf(actor),
    };
  }

  private async checkCaptcha(token: string | undefined, action: 'login' | 'register', ip: string) {
    if (!(await this.deps.captcha.verify(token, action, ip))) {
      throw new AppError('RECAPTCHA_FAILED', Messages.captchaMissing);
    }
  }

  /** A new device token for a user who has just proven who they are. */
  async issueToken(userId: string, client: ClientInfo): Promise<string> {
    const token = newSecret();
    await this.deps.users.insertToken({
      id: newId(),
      user_id: userId,
      token_hash: sha256(token),
      kind: client.kind,
      name: client.kind === 'extension' ? 'Browser extension' : 'Web browser',
      user_agent: client.userAgent?.slice(0, 300) ?? null,
      created_at: this.deps.clock.now(),
    });
    return token;
  }

  async register(input: Register, client: ClientInfo): Promise<{ user: User; token: string }> {
    await this.checkCaptcha(input.recaptchaToken, 'register', client.ip);
    assertAcceptablePassword(input.password);
    const email = input.email.toLowerCase();
    const key = usernameKey(input.username);
    const taken = await this.deps.users.emailOrUsernameTaken(email, key);
    if (taken.email) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists.');
    if (taken.username) throw new AppError('USERNAME_TAKEN', 'This username is already taken.');
    const now = this.deps.clock.now();
    const user = {
      id: newId(),
      email,
      username: input.username,
      username_key: key,
      password_hash: await hashPassword(input.password),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.deps.users.insert(user);
    } catch (error) {
      // Two registrations racing for the same email/username: the unique index decides.
      const again = await this.deps.users.emailOrUsernameTaken(email, key);
      if (again.email) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists.');
      if (again.username) throw new AppError('USERNAME_TAKEN', 'This username is already taken.');
      throw error;
    }
    const token = await this.issueToken(user.id, client);
    return {
      user: this.toUser({ userId: user.id, email, username: user.username, createdAt: now, subscription: undefined }),
      token,
    };
  }

  /**
   * Same answer for an unknown email and a wrong password, in the same time. Failures are counted
   * per email typed (known or not, so the pause tells nothing) on top of the per-address rate limit.
   */
  async login(input: Login, client: ClientInfo): Promise<{ user: User; token: string }> {
    await this.checkCaptcha(input.recaptchaToken, 'login', client.ip);
    const email = input.email.toLowerCase();
    const throttleKey = signInThrottleKey(email);
    const now = this.deps.clock.now();
    const since = now - SIGN_IN_WINDOW_MS;
    const failures = await this.deps.users.signInFailures(throttleKey, since);
    if (failures.count >= this.deps.maxFailuresPerAccount) {
      const retryAfter = Math.max(1, Math.ceil((failures.windowStart + SIGN_IN_WINDOW_MS - now) / 1000));
      throw new AppError('RATE_LIMITED', AccountMessages.tooManySignIns, undefined, retryAfter);
    }
    const fail = async (error: AppError): Promise<never> => {
      await this.deps.users.recordSignInFailure(throttleKey, now, since);
      throw error;
    };
    const row = await this.deps.users.findByEmail(email);
    const ok = row ? await verifyPassword(row.password_hash, input.password) : await verifyAgainstDummy(input.password);
    if (!row || !ok) return fail(new AppError('INVALID_CREDENTIALS', Messages.invalidCredentials));
    if (row.totp_secret) {
      if (!input.totpCode?.trim()) throw new AppError('TOTP_REQUIRED', AccountMessages.totpRequired);
      if (!(await this.deps.secondFactor.accept(row, input.totpCode, { recovery: true }))) {
        return fail(new AppError('TOTP_INVALID', AccountMessages.totpInvalid));
      }
    }
    await this.deps.users.clearSignInFailures(throttleKey);
    const token = await this.issueToken(row.id, client);
    const actor = await this.deps.users.findActor(sha256(token));
    if (!actor) throw new Error('token vanished right after it was issued');
    return { user: this.toUser(actor), token };
  }

  /**
   * Resolves a bearer token to its user; undefined when unknown, revoked, expired (API tokens) or
   * idle too long (devices: an API token lives until its own expiry, scripts may run rarely).
   */
  async authenticate(token: string): Promise<Actor | undefined> {
    if (token.length < 20 || token.length > 200) return undefined;
    const found = await this.deps.users.findActor(sha256(token));
    if (!found) return undefined;
    const now = this.deps.clock.now();
    const expired =
      found.tokenKind === 'api'
        ? found.expiresAt !== null && now >= found.expiresAt
        : now - found.lastUsedAt > TOKEN_IDLE_EXPIRY_MS;
    if (expired) {
      await this.deps.users.deleteToken(found.tokenId);
      return undefined;
    }
    if (now - found.lastUsedAt > TOUCH_INTERVAL_MS) await this.deps.users.touchToken(found.tokenId, now);
    const { lastUsedAt: _lastUsedAt, expiresAt: _expiresAt, ...actor } = found;
    return actor;
  }

  /** Revokes the token the request was made with. */
  async logout(actor: Actor): Promise<void> {
    await this.deps.users.deleteToken(actor.tokenId);
  }
}
