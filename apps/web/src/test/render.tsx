import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { makeQueryClient } from '../lib/query-client';

/** Renders inside the app's real providers; `seed` pre-fills the query cache so no request leaves. */
export function renderWithProviders(ui: ReactElement, seed?: (client: QueryClient) => void) {
  const client = makeQueryClient();
  seed?.(client);
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <MemoryRouter>{ui}</MemoryRouter>
      </QueryClientProvider>,
    ),
  };
}
