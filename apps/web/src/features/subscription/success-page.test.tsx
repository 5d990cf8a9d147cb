import type { SubscriptionStatusResponse, User } from '@linkwise/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../lib/auth-store';
import SuccessPage from './success-page';

const user: User = {
  id: 'u1',
  email: 'ada@example.com',
  username: 'ada',
  createdAt: '2026-11-01T00:00:00.000Z',
  subscriptionStatus: 'free',
  subscriptionPlan: null,
  subscriptionEndDate: null,
  linkLimit: 30,
};

const status = (active: boolean): SubscriptionStatusResponse => ({
  status: active ? 'active' : 'free',
  plan: active ? 'yearly' : null,
  scheduledPlan: null,
  endDate: active ? '2027-11-25T12:00:00.000Z' : null,
  isSubscribed: active,
  cancelAtPeriodEnd: false,
  hasUnlimitedLinks: active,
  linkLimit: active ? null : 30,
  canAddLinks: true,
  totalLinks: 0,
  remainingLinks: active ? null : 30,
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/subscription/success?session_id=cs_test_1']}>
        <SuccessPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().logout();
});

describe('subscription success page', () => {
  it('keeps confirming while the webhook is on its way, then shows the plan and updates the stored user', async () => {
    useAuth.getState().login(user, 'token-1');
    // The server's answers: not subscribed yet (the webhook has not landed), then active.
    const answers = [status(false), status(true)];
    const calls: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
      calls.push(String(input instanceof Request ? input.url : input));
      const body = answers.length > 1 ? answers.shift() : answers[0];
      return Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
    });
    renderPage();
    expect(screen.getByText('Confirming your subscription...')).toBeTruthy();
    await screen.findByRole('heading', { name: 'Welcome to Pro!' }, { timeout: 5000 });
    expect(calls.filter((c) => c.endsWith('/api/subscription/status'))).toHaveLength(2);
    expect(screen.getByText('Pro Yearly')).toBeTruthy();
    expect(screen.getByText('Next billing date')).toBeTruthy();
    expect(screen.getByText('November 25, 2027')).toBeTruthy();
    // The navbar reads this store: Pro badge and menu label change without signing in again.
    expect(useAuth.getState().user).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionPlan: 'yearly',
      subscriptionEndDate: '2027-11-25T12:00:00.000Z',
      linkLimit: null,
    });
  });

  it('shows the page anyway when the status call fails (spec §8), without claiming a plan', async () => {
    useAuth.getState().login(user, 'token-2');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('network down')));
    renderPage();
    await screen.findByRole('heading', { name: 'Welcome to Pro!' });
    expect(screen.queryByText('Next billing date')).toBeNull();
    expect(screen.getByText(/still being confirmed/)).toBeTruthy();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
