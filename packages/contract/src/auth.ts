import { z } from 'zod';
import { Limits, Messages } from './messages.js';
import { TimestampSchema } from './common.js';

export const SubscriptionStatuses = ['free', 'active', 'canceled', 'past_due', 'unpaid'] as const;
export const SubscriptionStatusSchema = z.enum(SubscriptionStatuses);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatusSchema>;

export const PaidPlanIds = ['monthly', 'yearly'] as const;
export const PaidPlanIdSchema = z.enum(PaidPlanIds);
export type PaidPlanId = z.infer<typeof PaidPlanIdSchema>;

export const EmailSchema = z
  .string({ error: Messages.invalidEmail })
  .trim()
  .max(Limits.emailMax, { error: Messages.invalidEmail })
  .pipe(z.email({ error: Messages.invalidEmail }));

export const PasswordSchema = z
  .string({ error: Messages.passwordTooShort })
  .min(Limits.passwordMin, { error: Messages.passwordTooShort })
  .max(Limits.passwordMax, { error: `Password must be at most ${Limits.passwordMax} characters` });

export const UsernameSchema = z
  .string({ error: Messages.usernameTooShort })
  .trim()
  .min(Limits.usernameMin, { error: Messages.usernameTooShort })
  .max(Limits.usernameMax, { error: `Username must be at most ${Limits.usernameMax} characters` })
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, { error: 'Username must not contain control characters' });

export const CaptchaTokenSchema = z.string().max(4096).optional();

export const LoginSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  recaptchaToken: CaptchaTokenSchema,
  totpCode: z.string().max(16).optional(),
});
export type Login = z.infer<typeof LoginSchema>;

export const RegisterSchema = z.object({
  email: EmailSchema,
  username: UsernameSchema,
  password: PasswordSchema,
  recaptchaToken: CaptchaTokenSchema,
});
export type Register = z.infer<typeof RegisterSchema>;

/** The registration form: the API body plus the confirmation field checked in the browser. */
export const RegisterFormSchema = RegisterSchema.extend({
  confirmPassword: z.string(),
}).refine((v) => v.password === v.confirmPassword, {
  error: Messages.passwordsDontMatch,
  path: ['confirmPassword'],
});

export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  createdAt: TimestampSchema,
  subscriptionStatus: SubscriptionStatusSchema,
  subscriptionPlan: PaidPlanIdSchema.nullable(),
  subscriptionEndDate: TimestampSchema.nullable(),
  linkLimit: z.number().int().nullable().describe('null means unlimited'),
});
export type User = z.infer<typeof UserSchema>;

export const AuthResponseSchema = z.object({ user: UserSchema, token: z.string() });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

export const MeResponseSchema = z.object({ user: UserSchema });

export const CaptchaConfigSchema = z.object({
  provider: z.enum(['off', 'altcha', 'recaptcha', 'turnstile']),
  siteKey: z.string().optional(),
  challenge: z.unknown().optional(),
});
