import { ApiError } from '@linkwise/contract';
import type { ReactNode } from 'react';
import { Logo } from '../../components/navbar';

/** The toast for a failed sign-in or registration: the server's sentence, or the spec's fallback. */
export function authErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === 'RECAPTCHA_FAILED') return 'Security verification failed. Please try again.';
    if (error.code !== 'INTERNAL' && error.message) return error.message;
  }
  return fallback;
}

/** Where to go after signing in: a same-site path from ?returnTo, else the dashboard. */
export function returnPath(search: string): string {
  const to = new URLSearchParams(search).get('returnTo');
  return to && to.startsWith('/') && !to.startsWith('//') ? to : '/dashboard';
}

export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-center justify-center bg-slate-50 px-4 py-10 dark:bg-slate-950">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <Logo />
          <h1 className="text-2xl font-bold">{title}</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>
        </div>
        {children}
      </div>
    </div>
  );
}
