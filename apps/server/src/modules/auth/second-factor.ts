import { randomInt } from 'node:crypto';
import type { UserRow } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { sha256 } from '../../lib/ids.js';
import type { SecretBox } from './secret-box.js';
import { newTotpSecret, totpEnrolment, totpStep } from './totp.js';
import type { UserRepository } from './user.repository.js';

export const RECOVERY_CODE_COUNT = 10;
/** Crockford-style alphabet: no 0/O or 1/I/L to misread from a printout. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const recoveryHash = (userId: string, code: string) => sha256(`recovery:${userId}:${normaliseRecovery(code)}`);

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** TOTP secrets (sealed with the server key), codes accepted once, and single-use recovery codes. */
export class SecondFactor {
  constructor(private readonly deps: { users: UserRepository; box: SecretBox; clock: Clock; issuer: string }) {}

  /**
   * Whether the server key opens the two-factor secrets already stored: a database restored without
   * its DATA_DIR/secret.key (or moved to another SECRET_KEY) accepts no code from anyone.
   */
  async keyOpensStoredSecrets(): Promise<boolean> {
    const stored = await this.deps.users.sealedTotpSecrets(3);
    return stored.every(({ id, sealed }) => this.deps.box.open(sealed, id) !== undefined);
  }

  /** A fresh secret kept as pending until a code confirms it. */
  async setup(user: { id: string; email: string }): Promise<{ secret: string; otpauthUrl: string; qrCode: string }> {
    const secret = newTotpSecret();
    await this.deps.users.setPendingTotp(user.id, this.deps.box.seal(secret, user.id));
    return { secret, ...(await totpEnrolment(secret, user.email, this.deps.issuer)) };
  }

  /** Confirms the pending secret with a code; the recovery codes in clear, or undefined for a wrong code. */
  async enable(row: UserRow, code: string): Promise<string[] | undefined> {
    const secret = row.totp_pending_secret ? this.deps.box.open(row.totp_pending_secret, row.id) : undefined;
    if (!secret) return undefined;
    const step = totpStep(secret, code, this.deps.clock.now());
    if (step === undefined) return undefined;
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.deps.users.enableTotp(
      row.id,
      row.totp_pending_secret!,
      step,
      codes.map((c) => recoveryHash(row.id, c)),
      this.deps.clock.now(),
    );
    return codes;
  }

  /**
   * True for a current code (±1 step) not older than or equal to the last accepted one, or, with
   * `recovery`, an unused recovery code (then used up).
   */
  async accept(row: UserRow, code: string, options: { recovery: boolean }): Promise<boolean> {
    const secret = row.totp_secret ? this.deps.box.open(row.totp_secret, row.id) : undefined;
    if (!secret) return false;
    const step = totpStep(secret, code, this.deps.clock.now());
    if (step !== undefined) return this.deps.users.claimTotpStep(row.id, step);
    if (!options.recovery || normaliseRecovery(code).length !== 10) return false;
    return this.deps.users.useRecoveryCode(row.id, recoveryHash(row.id, code), this.deps.clock.now());
  }
}
