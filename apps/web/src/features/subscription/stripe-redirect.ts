import { loadStripe } from '@stripe/stripe-js';

/**
 * Stripe.js's checkout redirect helper (spec §4: with a sessionId the client redirects through the
 * card payment provider's helper). Imported on demand, so Stripe.js loads only when a checkout starts.
 * Resolves false when Stripe.js could not load or refused; the caller then goes by the session's URL.
 */
export async function redirectToStripeCheckout(publishableKey: string, sessionId: string): Promise<boolean> {
  try {
    const stripe = await loadStripe(publishableKey);
    if (!stripe) return false;
    const { error } = await stripe.redirectToCheckout({ sessionId });
    if (error) console.warn('Stripe checkout redirect failed', error.message);
    return !error;
  } catch (error) {
    console.warn('Stripe.js could not be loaded', error);
    return false;
  }
}
