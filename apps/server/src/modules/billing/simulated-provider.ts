import type { PaidPlanId } from '@linkwise/contract';
import { newId } from '../../lib/ids.js';
import { addInterval } from './entitlements.js';
import type {
  CheckoutRequest,
  CurrentSubscription,
  PaymentProvider,
  PortalRequest,
  SubscriptionEvent,
} from './payment-provider.js';

/**
 * A payment provider that takes no money: its checkout and portal are local pages marked as test
 * mode, and its confirmations are shaped exactly like a real provider's subscription events.
 */
export class SimulatedPaymentProvider implements PaymentProvider {
  readonly name = 'simulated' as const;

  /** `appUrl` is the address people open (APP_URL): every page it hands out must come back to that origin. */
  constructor(private readonly appUrl: string) {}

  async startCheckout(request: CheckoutRequest): Promise<{ url: string; sessionId: string }> {
    const sessionId = await request.openLocalSession();
    return { url: `${this.appUrl}/billing/simulated/checkout/${sessionId}`, sessionId };
  }

  async startPortal(request: PortalRequest): Promise<{ url: string }> {
    return { url: `${this.appUrl}/billing/simulated/portal/${await request.openLocalSession()}` };
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
        scheduledPlan: null,
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

  /**
   * Spec §4: upgrades take effect immediately, downgrades at period end. Yearly is the upgrade: it
   * starts a new yearly period now. Monthly waits as the scheduled plan until the paid year runs
   * out. Choosing the current plan again withdraws a scheduled change. A pending cancellation is
   * left as it is: changing plan does not silently renew a subscription the user cancelled.
   */
  changePlan(sub: CurrentSubscription, plan: PaidPlanId, now: number): Promise<SubscriptionEvent> {
    const base = { ...sub, status: 'active' as const };
    if (plan === sub.plan)
      return Promise.resolve(this.event('customer.subscription.updated', { ...base, scheduledPlan: null }));
    if (plan === 'yearly') {
      return Promise.resolve(
        this.event('customer.subscription.updated', {
          ...base,
          plan,
          scheduledPlan: null,
          currentPeriodEnd: addInterval(now, plan),
        }),
      );
    }
    return Promise.resolve(this.event('customer.subscription.schedule_updated', { ...base, scheduledPlan: plan }));
  }
}
