import { z } from 'zod';

/** Stable, machine-readable error codes (API.md error table). */
export const ErrorCodes = [
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'RECAPTCHA_FAILED',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'TOTP_REQUIRED',
  'TOTP_INVALID',
  'TOKEN_SCOPE',
  'LINK_LIMIT_REACHED',
  'PLAN_REQUIRED',
  'NOT_FOUND',
  'EMAIL_TAKEN',
  'USERNAME_TAKEN',
  'DUPLICATE_LINK',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'FETCH_FAILED',
  'NOT_HTML',
  'BLOCKED_ADDRESS',
  'BILLING_DISABLED',
  'INVALID_STATE',
  'VAULT_CONFLICT',
  'RATE_LIMITED',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
  'UNSUPPORTED_FORMAT',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];

/** Every error body: a sentence for people, a code for programs, optional details. */
export const ErrorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const IdSchema = z.string().min(1).max(64);
export const TimestampSchema = z.string().describe('ISO-8601 timestamp in UTC');

export const IdParamsSchema = z.object({ id: IdSchema });

/** Query-string booleans: only the literal words are accepted; anything else is ignored. */
export const QueryBoolean = z
  .string()
  .optional()
  .transform((v) => (v === 'true' ? true : v === 'false' ? false : undefined));

export const SuccessFlagSchema = z.object({ success: z.literal(true) });

/**
 * Format characters that never change what text says (zero-width spaces, a BOM, soft hyphens,
 * direction marks). Joiners (they shape emoji and some scripts) and tag characters (flag emoji) stay.
 */
const INVISIBLE = /(?!\u200C|\u200D|[\u{E0020}-\u{E007F}])\p{Cf}/gu;

export const withoutInvisibles = (text: string): string => text.replace(INVISIBLE, '');

/** What of `text` shows on screen: no format characters at all. */
export const visibleText = (text: string): string => text.replace(/\p{Cf}/gu, '').trim();

/** Trim, drop invisible characters and a leading '#', collapse inner whitespace: the display form of a tag. */
export function cleanTag(raw: string): string {
  return withoutInvisibles(raw).trim().replace(/^#+/, '').replace(/\s+/g, ' ').trim();
}

/** The key two tags are compared by (case-insensitive, Unicode-normalised). */
export function tagKey(tag: string): string {
  return cleanTag(tag).normalize('NFKC').toLocaleLowerCase('en-US');
}
