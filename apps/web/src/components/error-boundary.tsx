import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertPanel } from './alert-panel';
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
    <AlertPanel
      title="Something went wrong"
      message="An unexpected error occurred. Please try again or contact support if the problem persists."
    >
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium">Error details</summary>
        <pre className="mt-2 overflow-x-auto whitespace-pre-wrap rounded bg-white p-3 text-xs dark:bg-slate-900">
          {error.message}
        </pre>
      </details>
      <Button className="mt-4" onClick={onReset}>
        Try Again
      </Button>
    </AlertPanel>
  );
}
