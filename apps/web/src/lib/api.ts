import { ApiError, createApiClient } from '@linkwise/contract';
import { useAuth } from './auth-store';

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => window.location.assign('/login');

/** The router registers how to send a signed-out user to /login (without a full reload). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

/**
 * A 401 on a signed-in call ends the session and goes to /login, except for the extension auth
 * calls and anything on the extension auth page, which show their own messages (spec §4).
 */
const sessionAwareFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  // Only an unknown or revoked token ends the session: a wrong password or 2FA code is the form's to show.
  if (response.status === 401 && (await errorCode(response)) === 'UNAUTHENTICATED') {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const extensionCall = url.includes('/api/auth/extension/');
    const onExtensionPage = window.location.pathname.startsWith('/extension/auth');
    if (!extensionCall && !onExtensionPage && useAuth.getState().token) {
      useAuth.getState().logout();
      onUnauthorized();
    }
  }
  return response;
};

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return 'UNAUTHENTICATED';
  }
}

/** The one API client of the web app: the contract's typed client with the session's token. */
export const api = createApiClient({
  getToken: () => useAuth.getState().token,
  fetch: sessionAwareFetch,
});

/** The server's message for each field a VALIDATION_ERROR names (`details.fields`); empty for any other failure. */
export function serverFieldErrors(error: unknown): Record<string, string | undefined> {
  if (!(error instanceof ApiError)) return {};
  return (error.details?.fields ?? {}) as Record<string, string | undefined>;
}

/** The server's `error` sentence when there is one, else the spec's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message && error.code !== 'INTERNAL') return error.message;
  return fallback;
}
