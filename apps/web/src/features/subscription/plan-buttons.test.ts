import { describe, expect, it } from 'vitest';
import { faq, planButton } from './pricing-page';

describe('pricing buttons (spec §2)', () => {
  it('signed out or free: Current Plan on Free, upgrades on the paid cards', () => {
    expect(planButton('free', false, undefined, null)).toMatchObject({ text: 'Current Plan', disabled: true });
    expect(planButton('free', true, 'free', null)).toMatchObject({ text: 'Current Plan', disabled: true });
    expect(planButton('yearly', false, undefined, null)).toMatchObject({
      text: 'Upgrade to Pro Yearly',
      action: 'checkout',
    });
  });

  it('active: their plan is Current Plan (disabled), Free reads Free Plan (disabled)', () => {
    expect(planButton('monthly', true, 'active', 'monthly')).toMatchObject({ text: 'Current Plan', disabled: true });
    expect(planButton('free', true, 'active', 'monthly')).toMatchObject({ text: 'Free Plan', disabled: true });
    expect(planButton('yearly', true, 'active', 'monthly')).toMatchObject({
      text: 'Manage Subscription',
      action: 'portal',
    });
  });

  it('other signed-in states see Free Plan and can check out', () => {
    expect(planButton('free', true, 'past_due', 'monthly')).toMatchObject({ text: 'Free Plan', disabled: true });
    expect(planButton('monthly', true, 'canceled', 'monthly')).toMatchObject({ action: 'checkout', disabled: false });
  });

  it('has six FAQ items that name the configured Free limit', () => {
    expect(faq(12)).toHaveLength(6);
    expect(
      faq(12)
        .map((f) => f.a)
        .join(' '),
    ).toContain('up to 12 links');
  });

  it('answers the trial question truthfully for what is configured', () => {
    const trial = (days: number) => faq(30, days).find((f) => f.q === 'Is there a free trial?')?.a ?? '';
    expect(trial(0)).toMatch(/^There is no free trial/);
    expect(trial(14)).toMatch(/^Yes: your first Pro subscription starts with 14 days free/);
    expect(trial(14)).toContain('Your card is asked for up front');
  });
});
