import { XCircle } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { useAppConfig } from '../../lib/shared-queries';

export default function CancelPage() {
  const config = useAppConfig();
  const limit = config.data?.freeLinkLimit ?? 30;
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-10 dark:bg-slate-950">
      <div className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <XCircle className="mx-auto size-14 text-slate-400" aria-hidden />
        <h1 className="mt-4 text-3xl font-bold">Payment Cancelled</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">Your payment was cancelled and no charges were made.</p>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          Your account stays on the Free plan with up to {limit} links. You can upgrade whenever you are ready.
        </p>
        <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Link to="/pricing" className={buttonClass('primary')}>
            View Plans
          </Link>
          <Link to="/" className={buttonClass('secondary')}>
            Back to Home
          </Link>
        </div>
      </div>
    </main>
  );
}
