import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

const PERIOD_MS = 30_000;

/** RFC 6238 with the parameters every authenticator app supports: SHA-1, 6 digits, 30 s. */
function totp(secretBase32: string, label = 'account', issuer = 'Linkwise'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export async function totpEnrolment(
  secret: string,
  label: string,
  issuer: string,
): Promise<{ otpauthUrl: string; qrCode: string }> {
  const otpauthUrl = totp(secret, label, issuer).toString();
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * The time step a code belongs to, accepting the previous and next step (clock drift), or undefined.
 * Callers refuse a step at or before the last one accepted, so no code works twice.
 */
export function totpStep(secret: string, code: string, now: number): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totp(secret).validate({ token, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / PERIOD_MS) + delta;
}

/** The code for `now` (tests and the journeys compute codes as an authenticator would). */
export const totpCode = (secret: string, now: number): string => totp(secret).generate({ timestamp: now });
