import { QueryClient } from '@tanstack/react-query';

/** Five minutes fresh and no retries (spec §7: client data cache). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5 * 60_000, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
