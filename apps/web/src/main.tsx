import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { router } from './app/router';
import { installFocusRescue } from './lib/focus-rescue';
import { makeQueryClient } from './lib/query-client';
import './index.css';

const queryClient = makeQueryClient();

// A global application error is logged to the console only (spec §8).
window.addEventListener('unhandledrejection', (event) => console.warn('Unhandled rejection', event.reason));
installFocusRescue();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        {/* Top-right (spec), below the navbar and the page header's primary action (the dashboard's
            Add Link): a toast over either hid them. On a phone the header's button sits lower. */}
        <Toaster
          position="top-right"
          offset={{ top: 152 }}
          mobileOffset={{ top: 72 }}
          theme="system"
          richColors
          closeButton
        />
      </QueryClientProvider>
    </StrictMode>,
  );
}
