import { useEffect } from 'react';
import { useLocation } from 'react-router';

const APP = 'Linkwise';

/** Each route's document title (tabs, history and screen readers tell pages apart by it). */
export const ROUTE_TITLES: Record<string, string> = {
  '/': 'Linkwise: save links, find them again',
  '/login': 'Sign in',
  '/register': 'Create your account',
  '/forgot-password': 'Reset your password',
  '/reset-password': 'Choose a new password',
  '/dashboard': 'Your Links',
  '/profile': 'Profile',
  '/vault': 'Vault',
  '/pricing': 'Pricing',
  '/privacy': 'Privacy Policy',
  '/terms': 'Terms of Service',
  '/contact': 'Contact and Help',
  '/about': 'About',
  '/security': 'Security',
  '/status': 'Status',
  '/import': 'Import bookmarks',
  '/extension/install': 'Browser extension',
  '/extension/auth': 'Connect the extension',
  '/extension/welcome': 'Extension installed',
  '/subscription/success': 'Subscription active',
  '/subscription/cancel': 'Checkout cancelled',
};

/** "Your Links · Linkwise"; the landing page's title stands alone; unknown paths read "Page not found". */
export function titleFor(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/') return ROUTE_TITLES['/']!;
  const title = ROUTE_TITLES[path] ?? 'Page not found';
  return `${title} · ${APP}`;
}

/** Sets the document title on every route change. */
export function RouteTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = titleFor(pathname);
  }, [pathname]);
  return null;
}
