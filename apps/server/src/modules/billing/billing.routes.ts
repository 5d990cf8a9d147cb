import { routes } from '@linkwise/contract';
import type { AddRoute } from '../../http/route-adapter.js';
import type { BillingService } from './billing.service.js';

export function billingRoutes(add: AddRoute, billing: BillingService): void {
  add(routes.subscriptionPlans, () => Promise.resolve(billing.plans()));
  add(routes.subscriptionStatus, ({ actor }) => billing.status(actor));
  add(routes.subscriptionUsage, ({ actor }) => billing.usage(actor));
  add(routes.createCheckout, ({ actor, body }) => billing.createCheckout(actor, body.plan), {
    rateLimitPerMinute: 30,
  });
  add(routes.createPortal, ({ actor }) => billing.createPortal(actor), { rateLimitPerMinute: 30 });
  add(routes.cancelSubscription, ({ actor }) => billing.cancel(actor));
  add(routes.resumeSubscription, ({ actor }) => billing.resume(actor));
  add(routes.updatePlan, ({ actor, body }) => billing.updatePlan(actor, body.plan));
}
