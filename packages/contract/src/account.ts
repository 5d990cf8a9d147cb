import { z } from 'zod';
import { CaptchaTokenSchema, EmailSchema, PasswordSchema } from './auth.js';
import { TimestampSchema } from './common.js';

/** Wording of account security, in the spec's tone (short sentences, what to do next). */
export const AccountMessages = {
  commonPassword: 'This password is too common. Please choose a less predictable one',
  wrongPassword: 'Current password is incorrect',
  totpRequired: 'Enter the 6-digit code from your authenticator app',
  totpInvalid: 'Invalid or already used code. Please try again.',
  resetSent: 'If an account exists for that email, we sent it a link to reset the password.',
  resetInvalid: 'This reset link is invalid or has expired. Please ask for a new one.',
  resetUnavailable:
    'This server does not send email, so a forgotten password is reset by its administrator. Please ask them for a new one.',
  tooManySignIns: 'Too many failed sign-in attempts for this account. Please try again in a few minutes.',
  readOnlyToken: 'This API token can only read. Create a read-write token to make changes.',
  tokenCannotManageAccount: 'API tokens cannot manage the account. Sign in to do this.',
  deleteNeedsPassword: 'Enter your password to delete your account',
} as const;

export const SessionKindSchema = z.enum(['web', 'extension', 'api']);
export const TokenScopeSchema = z.enum(['read', 'write']);
export type TokenScope = z.infer<typeof TokenScopeSchema>;

export const SessionSchema = z.object({
  id: z.string(),
  kind: SessionKindSchema,
  name: z.string(),
  userAgent: z.string().nullable(),
  createdAt: TimestampSchema,
  lastUsedAt: TimestampSchema,
  current: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;
export const SessionListSchema = z.object({ data: z.array(SessionSchema) });

/** A password check field: any text up to the longest accepted password (never re-validated for length). */
const PasswordCheckSchema = z
  .string({ error: 'Password is required' })
  .min(1, { error: 'Password is required' })
  .max(256, { error: 'Password is required' });

export const ChangePasswordSchema = z.object({
  currentPassword: PasswordCheckSchema,
  newPassword: PasswordSchema,
});
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const ForgotPasswordSchema = z.object({ email: EmailSchema, recaptchaToken: CaptchaTokenSchema });
export const ForgotPasswordResponseSchema = z.object({ message: z.string() });
export const ResetPasswordSchema = z.object({
  token: z.string().min(1, { error: AccountMessages.resetInvalid }).max(200, { error: AccountMessages.resetInvalid }),
  password: PasswordSchema,
});

export const TotpCodeSchema = z
  .string({ error: AccountMessages.totpRequired })
  .trim()
  .min(1, { error: AccountMessages.totpRequired })
  .max(32, { error: AccountMessages.totpInvalid });

export const TwoFactorSetupResponseSchema = z.object({
  secret: z.string().describe('Base32, for typing into an authenticator by hand'),
  otpauthUrl: z.string(),
  qrCode: z.string().describe('An SVG data URL of otpauthUrl'),
});
export const TwoFactorEnableSchema = z.object({ code: TotpCodeSchema });
export const TwoFactorEnableResponseSchema = z.object({
  recoveryCodes: z.array(z.string()).describe('Shown once; each signs in once in place of a code'),
});
export const TwoFactorDisableSchema = z.object({ password: PasswordCheckSchema, code: TotpCodeSchema });

export const SecurityOverviewSchema = z.object({
  twoFactorEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});

/** Public: which account features this server offers (the sign-in page hides what it cannot do). */
export const AuthFeaturesSchema = z.object({ passwordReset: z.boolean() });

export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: TokenScopeSchema,
  createdAt: TimestampSchema,
  lastUsedAt: TimestampSchema,
  expiresAt: TimestampSchema.nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;
export const ApiTokenListSchema = z.object({ data: z.array(ApiTokenSchema) });
export const ApiTokenCreateSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, { error: 'Name is required' })
    .max(100, { error: 'Name must be at most 100 characters' }),
  scope: TokenScopeSchema,
  expiresInDays: z
    .number({ error: 'Expiry must be a number of days' })
    .int({ error: 'Expiry must be a whole number of days' })
    .min(1, { error: 'Expiry must be at least 1 day' })
    .max(3650, { error: 'Expiry must be at most 3650 days' })
    .optional(),
});
export type ApiTokenCreate = z.infer<typeof ApiTokenCreateSchema>;
export const ApiTokenCreatedSchema = ApiTokenSchema.extend({
  token: z.string().describe('Shown only in this answer'),
});

export const DeleteAccountSchema = z.object({
  password: PasswordCheckSchema,
  code: TotpCodeSchema.optional(),
});
