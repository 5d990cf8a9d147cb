import { defineJob, jobSpec, Priority, type JobDefinition } from '../../platform/jobs/job.js';
import type { BillingService } from './billing.service.js';

/**
 * Enqueued by `POST /api/webhooks/stripe` in the transaction that records the event id, so each
 * delivery is applied once. Interactive: someone may be waiting on the success page. Stripe being
 * unreachable is retried (2 s × 3^(n−1) up to 20 min, 8 attempts, about half an hour in all); applying the state read
 * again is idempotent, so a repeated attempt is harmless.
 */
export const stripeEventSpec = jobSpec({
  name: 'stripe-event',
  priority: Priority.interactive,
  retry: { attempts: 8, backoff: { baseMs: 2000, factor: 3, maxMs: 20 * 60_000 } },
});

export function stripeEventJob(billing: BillingService): JobDefinition<'stripe-event'> {
  return defineJob(stripeEventSpec, {
    run: ({ customerId, userId }) => billing.syncStripeCustomer(customerId, userId),
    onGiveUp: ({ eventId, customerId }, error, ctx) => {
      ctx.log.error(
        { err: error, eventId, customerId },
        'stripe event could not be applied; the next event for this customer will',
      );
      return Promise.resolve();
    },
  });
}
