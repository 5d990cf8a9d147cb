import { z } from 'zod';

/** Public settings the web app needs before anyone signs in (legal pages, footer, plan limits). */
export const AppConfigResponseSchema = z.object({
  operatorName: z.string(),
  supportEmail: z.string(),
  billing: z.enum(['off', 'simulated', 'stripe']),
  freeLinkLimit: z.number().int(),
  /** Days of free trial a first checkout starts with (0: none, and no screen offers one). */
  trialDays: z.number().int().min(0),
  /** With Stripe: the publishable key for Stripe.js's checkout redirect (null: go by the checkout URL). */
  stripePublishableKey: z.string().nullable(),
});
export type AppConfigResponse = z.infer<typeof AppConfigResponseSchema>;
