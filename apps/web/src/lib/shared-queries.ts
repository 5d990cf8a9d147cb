import { ApiError, type PaidPlanId } from '@linkwise/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from './toast';
import { api } from './api';
import { useAuth } from './auth-store';

/** Operator name, support address, billing mode and free limit; they change only on redeploy. */
export function useAppConfig() {
  return useQuery({ queryKey: ['config'], queryFn: () => api.appConfig(), staleTime: Infinity });
}

export const FALLBACK_CONFIG = {
  operatorName: 'Linkwise',
  supportEmail: 'support@linkwise.example',
  billing: 'simulated' as const,
  freeLinkLimit: 30,
  trialDays: 0,
  stripePublishableKey: null,
};

export function usePlans() {
  return useQuery({ queryKey: ['plans'], queryFn: () => api.subscriptionPlans(), staleTime: 30 * 60_000 });
}

export function useSubscriptionStatus(enabled = true) {
  const token = useAuth((s) => s.token);
  return useQuery({
    queryKey: ['subscription-status', token],
    queryFn: () => api.subscriptionStatus(),
    enabled: enabled && Boolean(token),
  });
}

/**
 * Checkout: idle → 'Processing...' → idle (spec §4). Signed out, it says so and sends the user to
 * /login with /pricing to come back to.
 */
export function useCheckout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [processing, setProcessing] = useState<PaidPlanId | null>(null);
  /** The plan whose checkout could not be created (the Checkout Error panel retries it). */
  const [failed, setFailed] = useState<PaidPlanId | null>(null);
  const start = async (plan: PaidPlanId) => {
    if (!useAuth.getState().isAuthenticated) {
      toast.error('Please sign in to upgrade your plan');
      await navigate('/login?returnTo=%2Fpricing');
      return;
    }
    setProcessing(plan);
    setFailed(null);
    try {
      const [{ url, sessionId }, config] = await Promise.all([
        api.createCheckout({ body: { plan } }),
        queryClient.fetchQuery({ queryKey: ['config'], queryFn: () => api.appConfig(), staleTime: Infinity }),
      ]);
      // With Stripe and a publishable key, Stripe.js's helper redirects (loaded only now); else the URL.
      if (sessionId && config.stripePublishableKey) {
        const { redirectToStripeCheckout } = await import('../features/subscription/stripe-redirect');
        if (await redirectToStripeCheckout(config.stripePublishableKey, sessionId)) return;
      }
      window.location.assign(url);
    } catch (error) {
      // A refusal the user can act on (already subscribed: manage it instead) is said as the server says it.
      if (error instanceof ApiError && error.code === 'INVALID_STATE') toast.error(error.message);
      else {
        toast.error('Failed to create checkout session. Please try again.');
        setFailed(plan);
      }
      setProcessing(null);
    }
  };
  return { processing, failed, start };
}

/** Opens the billing portal in a new tab; the tab is opened first so pop-up blockers allow it. */
export function usePortal() {
  return useMutation({
    mutationFn: async () => {
      const tab = window.open('', '_blank');
      if (tab) tab.opener = null;
      try {
        const { url } = await api.createPortal();
        if (tab) tab.location.href = url;
        else window.location.assign(url);
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
    onError: () => toast.error('Failed to open subscription management. Please try again.'),
  });
}
