import { Brain, CheckCircle2, Keyboard, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Logo } from '../../components/navbar';
import { Button } from '../../components/ui/button';

export const WELCOME_CLOSE_SECONDS = 10;

/** The extension names its browser's save shortcut (Firefox needs another than Ctrl+Shift+H). */
export function welcomeShortcut(value: string | null): string {
  const shortcut = value?.trim() ?? '';
  return shortcut.length > 0 && shortcut.length <= 40 && !/[<>]/.test(shortcut) ? shortcut : 'Ctrl+Shift+H';
}

export default function ExtensionWelcomePage() {
  const [left, setLeft] = useState(WELCOME_CLOSE_SECONDS);
  const [params] = useSearchParams();
  const shortcut = welcomeShortcut(params.get('shortcut'));
  useEffect(() => {
    const tick = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    const close = setTimeout(() => window.close(), WELCOME_CLOSE_SECONDS * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(close);
    };
  }, []);
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-10 dark:bg-slate-950">
      <div className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <div className="flex justify-center">
          <Logo />
        </div>
        <CheckCircle2 className="mx-auto mt-6 size-12 text-green-600" aria-hidden />
        <h1 className="mt-3 text-2xl font-bold">The Linkwise extension is installed!</h1>
        <ul className="mt-6 space-y-4 text-left">
          <li className="flex gap-3">
            <Keyboard className="size-6 shrink-0 text-brand-600" aria-hidden />
            <span>
              <strong>Quick save</strong>: press <kbd className="rounded border px-1.5 text-sm">{shortcut}</kbd> on any
              page.
            </span>
          </li>
          <li className="flex gap-3">
            <Brain className="size-6 shrink-0 text-brand-600" aria-hidden />
            <span>
              <strong>AI categorisation</strong>: titles, descriptions, categories and tags are proposed for you.
            </span>
          </li>
          <li className="flex gap-3">
            <Search className="size-6 shrink-0 text-brand-600" aria-hidden />
            <span>
              <strong>Smart search</strong>: find links by meaning from the dashboard.
            </span>
          </li>
        </ul>
        <p className="mt-6 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          This tab closes in {left} seconds.
        </p>
        <Button className="mt-4" onClick={() => window.close()}>
          Get Started
        </Button>
      </div>
    </main>
  );
}
