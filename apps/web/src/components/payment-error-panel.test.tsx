import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { PaymentErrorPanel, PaymentErrorTitles, type PaymentErrorKind } from './payment-error-panel';

describe('payment error panel', () => {
  it('has the spec’s four titles, each with a retry and a link back to the dashboard', async () => {
    expect(Object.values(PaymentErrorTitles)).toEqual([
      'Payment System Initialization Failed',
      'Checkout Error',
      'Subscription Management Error',
      'Payment Error',
    ]);
    for (const kind of Object.keys(PaymentErrorTitles) as PaymentErrorKind[]) {
      const onRetry = vi.fn();
      const { unmount } = render(
        <MemoryRouter>
          <PaymentErrorPanel kind={kind} onRetry={onRetry} />
        </MemoryRouter>,
      );
      expect(screen.getByRole('heading', { name: PaymentErrorTitles[kind] })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
      await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
      expect(onRetry).toHaveBeenCalledOnce();
      unmount();
    }
  });

  it('uses the spec’s general payment failure wording', () => {
    render(
      <MemoryRouter>
        <PaymentErrorPanel kind="payment" onRetry={() => undefined} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Payment system error. Please try again later.');
  });
});
