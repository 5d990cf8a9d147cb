import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary';
import { Navbar } from '../components/navbar';
import { PageSpinner } from '../components/ui/spinner';
import { VaultLifecycle } from '../components/vault/vault-lifecycle';
import { useAuth } from '../lib/auth-store';

/** Every route change scrolls to the top, unless the address carries a section hash. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** Pages outside the main layout still get the error panel and a loading state. */
export function BareLayout() {
  return (
    <ErrorBoundary>
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}

export function MainLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2 focus:text-slate-900"
      >
        Skip to content
      </a>
      <Navbar />
      <VaultLifecycle />
      <main id="main" className="flex-1">
        <ErrorBoundary>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}

/** Signed-out visitors go to /login, replacing the history entry. */
export function RequireAuth() {
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** The landing page sends a signed-in user to the dashboard, replacing the history entry. */
export function RedirectIfSignedIn({ children }: { children: React.ReactNode }) {
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
