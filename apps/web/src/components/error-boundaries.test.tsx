import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary';
import { SubscriptionErrorBoundary } from './subscription-error-boundary';

function Bomb(): never {
  throw new Error('kaboom');
}

function Sometimes({ fail }: { fail: () => boolean }) {
  if (fail()) throw new Error('still broken');
  return <p>recovered</p>;
}

describe('error fallback panel', () => {
  it('shows the spec’s words with details, and Try Again clears the error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let broken = true;
    render(
      <ErrorBoundary>
        <Sometimes fail={() => broken} />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Something went wrong')).toBeTruthy();
    expect(
      screen.getByText('An unexpected error occurred. Please try again or contact support if the problem persists.'),
    ).toBeTruthy();
    expect(screen.getByText('still broken')).toBeTruthy();
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('recovered')).toBeTruthy();
  });
});

describe('subscription error boundary', () => {
  it('allows three retries, counting down, then says the maximum was reached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(
      <MemoryRouter>
        <SubscriptionErrorBoundary>
          <Bomb />
        </SubscriptionErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByText('Subscription Service Error')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/contact');
    for (const left of ['3 attempts remaining', '2 attempts remaining', '1 attempt remaining']) {
      expect(screen.getByText(left)).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    }
    expect(screen.getByText('Maximum retry attempts reached. Please refresh the page.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('has a one-line minimal form', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(
      <SubscriptionErrorBoundary variant="minimal">
        <Bomb />
      </SubscriptionErrorBoundary>,
    );
    expect(screen.getByText('Subscription feature temporarily unavailable')).toBeTruthy();
    expect(screen.getByText('Please refresh the page or try again later.')).toBeTruthy();
  });
});
