import { ApiError, createApiClient, type ApiClient } from '@linkwise/contract';
import { getConnection, updateConnection, type Connection } from './state.js';

/** A signed-in client for the connected server; a 401 marks the connection for Reconnect. */
export function clientFor(connection: Connection): ApiClient {
  return createApiClient({
    baseUrl: connection.server,
    getToken: () => connection.token,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 401 && connection.token) await updateConnection({ needsReconnect: true });
      return response;
    },
  });
}

export async function connectedClient(): Promise<{ api: ApiClient; connection: Connection }> {
  const connection = await getConnection();
  return { api: clientFor(connection), connection };
}

/** The server could not be reached at all (as opposed to answering with an error). */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429 || error.status === 408;
  return error instanceof TypeError;
}

export const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;
