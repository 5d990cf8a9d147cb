import { lazy } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api';
import { BareLayout, MainLayout, RedirectIfSignedIn, RequireAuth, ScrollToTop } from './layout';
import { RouteFocus } from './route-focus';
import { RouteTitle } from './route-title';

// Every screen is its own chunk, so the landing page downloads only what it shows.
const LandingPage = lazy(() => import('../features/landing/landing-page'));
const LoginPage = lazy(() => import('../features/auth/login-page'));
const RegisterPage = lazy(() => import('../features/auth/register-page'));
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/password-reset-pages').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/password-reset-pages').then((m) => ({ default: m.ResetPasswordPage })),
);
const DashboardPage = lazy(() => import('../features/links/dashboard-page'));
const ProfilePage = lazy(() => import('../features/profile/profile-page'));
const VaultSettingsPage = lazy(() => import('../features/vault/vault-settings-page'));
const ImportPage = lazy(() => import('../features/import/import-page'));
const PricingPage = lazy(() => import('../features/subscription/pricing-page'));
const SuccessPage = lazy(() => import('../features/subscription/success-page'));
const CancelPage = lazy(() => import('../features/subscription/cancel-page'));
const ExtensionAuthPage = lazy(() => import('../features/extension/extension-auth-page'));
const ExtensionWelcomePage = lazy(() => import('../features/extension/extension-welcome-page'));
const ExtensionInstallPage = lazy(() => import('../features/extension/extension-install-page'));
const StatusPage = lazy(() => import('../features/static/status-page'));
const PrivacyPage = lazy(() => import('../features/static/privacy-page'));
const TermsPage = lazy(() => import('../features/static/terms-page'));
const ContactPage = lazy(() => import('../features/static/contact-page'));
const AboutPage = lazy(() => import('../features/static/about-page'));
const SecurityPage = lazy(() => import('../features/static/security-page'));
const NotFoundPage = lazy(() => import('../features/static/not-found-page'));

function Root() {
  return (
    <>
      <ScrollToTop />
      <RouteTitle />
      <RouteFocus />
      <Outlet />
    </>
  );
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      {
        element: <MainLayout />,
        children: [
          {
            path: '/',
            element: (
              <RedirectIfSignedIn>
                <LandingPage />
              </RedirectIfSignedIn>
            ),
          },
          { path: '/login', element: <LoginPage /> },
          { path: '/register', element: <RegisterPage /> },
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/reset-password', element: <ResetPasswordPage /> },
          { path: '/pricing', element: <PricingPage /> },
          { path: '/privacy', element: <PrivacyPage /> },
          { path: '/terms', element: <TermsPage /> },
          { path: '/contact', element: <ContactPage /> },
          { path: '/about', element: <AboutPage /> },
          { path: '/security', element: <SecurityPage /> },
          { path: '/status', element: <StatusPage /> },
          { path: '/extension/install', element: <ExtensionInstallPage /> },
          {
            element: <RequireAuth />,
            children: [
              { path: '/dashboard', element: <DashboardPage /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/vault', element: <VaultSettingsPage /> },
              { path: '/import', element: <ImportPage /> },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <BareLayout />,
        children: [
          { path: '/extension/auth', element: <ExtensionAuthPage /> },
          { path: '/extension/welcome', element: <ExtensionWelcomePage /> },
          { path: '/subscription/success', element: <SuccessPage /> },
          { path: '/subscription/cancel', element: <CancelPage /> },
        ],
      },
    ],
  },
]);

setUnauthorizedHandler(() => void router.navigate('/login', { replace: true }));
