import { AlertTriangle } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from './ui/button';

interface State {
  error: Error | null;
}

/** Generic fallback panel (spec §2): the error is logged to the console only. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('Application error', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <ErrorFallback error={error} onReset={() => this.setState({ error: null })} />;
  }
}

export function ErrorFallback({ error, onReset }: { error: Error; onReset: () => void }) {
  return (
    <div
      role="alert"
      className="mx-auto my-16 max-w-lg rounded-xl border border-red-200 bg-red-50 p-6 dark:border-red-900 dark:bg-red-950/40"
    >
      <div className="flex items-center gap-3">
        <AlertTriangle className="size-6 text-red-600" aria-hidden />
        <h2 className="text-lg font-semibold">Something went wrong</h2>
      </div>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        An unexpected error occurred. Please try again or contact support if the problem persists.
      </p>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium">Error details</summary>
        <pre className="mt-2 overflow-x-auto whitespace-pre-wrap rounded bg-white p-3 text-xs dark:bg-slate-900">
          {error.message}
        </pre>
      </details>
      <Button className="mt-4" onClick={onReset}>
        Try Again
      </Button>
    </div>
  );
}
