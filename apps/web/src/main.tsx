import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { router } from './app/router';
import { makeQueryClient } from './lib/query-client';
import './index.css';

const queryClient = makeQueryClient();

// A global application error is logged to the console only (spec §8).
window.addEventListener('unhandledrejection', (event) => console.warn('Unhandled rejection', event.reason));

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        {/* Below the 64 px navbar: a toast over it hid the links (on a phone, the whole bar) and,
            paused while hovered, kept them hidden. */}
        <Toaster
          position="top-right"
          offset={{ top: 72 }}
          mobileOffset={{ top: 72 }}
          theme="system"
          richColors
          closeButton
        />
      </QueryClientProvider>
    </StrictMode>,
  );
}
