import type { ReactNode } from 'react';
import { SiteFooter } from '../../components/site-footer';

export function InfoPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <>
      <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold sm:text-4xl">{title}</h1>
        <p className="mt-3 text-lg text-slate-600 dark:text-slate-400">{intro}</p>
        <div className="mt-8 space-y-6">{children}</div>
      </div>
      <SiteFooter />
    </>
  );
}

export const infoCard =
  'rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900';
