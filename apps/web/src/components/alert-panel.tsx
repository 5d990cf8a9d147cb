import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';

/** The red panel of a failed screen: an alert with a title, a message and what the user can do next. */
export function AlertPanel({ title, message, children }: { title: string; message: ReactNode; children: ReactNode }) {
  return (
    <div
      role="alert"
      className="mx-auto my-10 max-w-lg rounded-xl border border-red-200 bg-red-50 p-6 dark:border-red-900 dark:bg-red-950/40"
    >
      <div className="flex items-center gap-3">
        <AlertTriangle className="size-6 shrink-0 text-red-600" aria-hidden />
        <h2 className="text-lg font-semibold">{title}</h2>
      </div>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{message}</p>
      {children}
    </div>
  );
}
