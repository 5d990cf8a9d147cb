import { z } from 'zod';

/** Public settings the web app needs before anyone signs in (legal pages, footer, plan limits). */
export const AppConfigResponseSchema = z.object({
  operatorName: z.string(),
  supportEmail: z.string(),
  billing: z.enum(['off', 'simulated', 'stripe']),
  freeLinkLimit: z.number().int(),
});
export type AppConfigResponse = z.infer<typeof AppConfigResponseSchema>;
