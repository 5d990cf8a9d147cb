import { z } from 'zod';
import { PaidPlanIdSchema, SubscriptionStatusSchema } from './auth.js';
import { TimestampSchema } from './common.js';

export const PlanSchema = z.object({
  id: z.enum(['free', 'monthly', 'yearly']),
  name: z.string(),
  price: z.number().describe('price per billing interval'),
  currency: z.string(),
  interval: z.enum(['forever', 'month', 'year']),
  priceYearly: z.number().nullable().describe('what a year costs on this plan'),
  monthlyEquivalent: z.number().nullable().describe('yearly plan only: price / 12'),
  savingsPercent: z.number().nullable().describe('yearly plan only: saving against 12 monthly payments'),
  features: z.array(z.string()),
  popular: z.boolean(),
  linkLimit: z.number().int().nullable(),
});
export type Plan = z.infer<typeof PlanSchema>;
export const PlansResponseSchema = z.object({
  data: z.array(PlanSchema),
  billing: z.enum(['off', 'simulated', 'stripe']),
});

export const SubscriptionStatusResponseSchema = z.object({
  status: SubscriptionStatusSchema,
  plan: PaidPlanIdSchema.nullable(),
  scheduledPlan: PaidPlanIdSchema.nullable().describe('a downgrade that takes effect at endDate'),
  endDate: TimestampSchema.nullable(),
  isSubscribed: z.boolean(),
  cancelAtPeriodEnd: z.boolean(),
  hasUnlimitedLinks: z.boolean(),
  linkLimit: z.number().int().nullable(),
  canAddLinks: z.boolean(),
  totalLinks: z.number().int(),
  remainingLinks: z.number().int().nullable(),
});
export type SubscriptionStatusResponse = z.infer<typeof SubscriptionStatusResponseSchema>;

export const UsageResponseSchema = z.object({
  totalLinks: z.number().int(),
  linkLimit: z.number().int().nullable(),
  hasUnlimitedLinks: z.boolean(),
  canAddLinks: z.boolean(),
});

export const PlanChoiceSchema = z.object({
  plan: z.enum(['monthly', 'yearly'], { error: 'Plan must be monthly or yearly' }),
});
export const CheckoutResponseSchema = z.object({ url: z.string(), sessionId: z.string().optional() });
export const PortalResponseSchema = z.object({ url: z.string() });

export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  version: z.string(),
});
