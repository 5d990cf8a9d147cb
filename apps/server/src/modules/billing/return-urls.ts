/**
 * Every address the server hands a payment provider to send the browser back to. Built from APP_URL
 * (the origin people open), never from the request: a return to another origin (127.0.0.1 for
 * localhost) arrives without the session kept in that origin's storage, signed out.
 */
export function returnUrls(appUrl: string) {
  return {
    /** `{CHECKOUT_SESSION_ID}` is filled in by Stripe; the simulated provider passes its own id. */
    success: (sessionId = '{CHECKOUT_SESSION_ID}') => `${appUrl}/subscription/success?session_id=${sessionId}`,
    cancel: `${appUrl}/subscription/cancel`,
    portalReturn: `${appUrl}/profile`,
  };
}
