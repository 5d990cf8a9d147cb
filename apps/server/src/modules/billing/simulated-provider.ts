import type { PaidPlanId } from '@linkwise/contract';
import { newId } from '../../lib/ids.js';
import { addInterval } from './entitlements.js';
import type { CurrentSubscription, PaymentProvider, SubscriptionEvent } from './payment-provider.js';

/**
 * A payment provider that takes no money: its checkout and portal are local pages marked as test
 * mode, and its confirmations are shaped exactly like a real provider's subscription events.
 */
export class SimulatedPaymentProvider implements PaymentProvider {
  readonly name = 'simulated' as const;

  constructor(private readonly appUrl: string) {}

  checkoutUrl(sessionId: string): string {
    return `${this.appUrl}/billing/simulated/checkout/${sessionId}`;
  }

  portalUrl(sessionId: string): string {
    return `${this.appUrl}/billing/simulated/portal/${sessionId}`;
  }

  private event(type: string, sub: Omit<SubscriptionEvent, 'eventId' | 'provider' | 'type'>): SubscriptionEvent {
    return { eventId: `sim_evt_${newId()}`, provider: 'simulated', type, ...sub };
  }

  confirmCheckout(userId: string, plan: PaidPlanId, now: number): Promise<SubscriptionEvent> {
    return Promise.resolve(
      this.event('checkout.session.completed', {
        userId,
        status: 'active',
        plan,
        currentPeriodEnd: addInterval(now, plan),
        cancelAtPeriodEnd: false,
        customerId: `sim_cus_${userId}`,
        subscriptionId: `sim_sub_${newId()}`,
      }),
    );
  }

  cancelAtPeriodEnd(sub: CurrentSubscription): Promise<SubscriptionEvent> {
    return Promise.resolve(
      this.event('customer.subscription.updated', { ...sub, status: 'active', cancelAtPeriodEnd: true }),
    );
  }

  resume(sub: CurrentSubscription): Promise<SubscriptionEvent> {
    return Promise.resolve(
      this.event('customer.subscription.updated', { ...sub, status: 'active', cancelAtPeriodEnd: false }),
    );
  }

  /** Upgrades take effect at once: the new interval starts now (the simulated proration is free). */
  changePlan(sub: CurrentSubscription, plan: PaidPlanId, now: number): Promise<SubscriptionEvent> {
    return Promise.resolve(
      this.event('customer.subscription.updated', {
        ...sub,
        status: 'active',
        plan,
        currentPeriodEnd: addInterval(now, plan),
        cancelAtPeriodEnd: false,
      }),
    );
  }
}
