import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from './ui/button';

export const MAX_RETRIES = 3;

interface Props {
  children: ReactNode;
  /** Minimal: one line; full: a panel with suggestions and Retry. */
  variant?: 'minimal' | 'full';
}
interface State {
  error: Error | null;
  retries: number;
}

/** Wraps subscription features; up to three retries, then says the maximum was reached (spec §8). */
export class SubscriptionErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, retries: 0 };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('Subscription feature error', error, info.componentStack);
  }

  private retry = () => this.setState((s) => ({ error: null, retries: s.retries + 1 }));

  override render() {
    const { error, retries } = this.state;
    if (!error) return this.props.children;
    if (this.props.variant === 'minimal') {
      return (
        <div role="alert" className="rounded-lg bg-amber-50 p-4 text-sm dark:bg-amber-950/40">
          <p className="font-medium">Subscription feature temporarily unavailable</p>
          <p>Please refresh the page or try again later.</p>
        </div>
      );
    }
    const left = MAX_RETRIES - retries;
    return (
      <div
        role="alert"
        className="mx-auto my-8 max-w-lg rounded-xl border border-amber-200 bg-amber-50 p-6 dark:border-amber-900 dark:bg-amber-950/40"
      >
        <h2 className="text-lg font-semibold">Subscription Service Error</h2>
        <ul className="mt-2 list-disc pl-5 text-sm">
          <li>Refresh the page</li>
          <li>Check back in a few minutes</li>
          <li>
            <Link to="/contact" className="underline">
              Contact support
            </Link>{' '}
            if the problem persists
          </li>
        </ul>
        {left > 0 ? (
          <div className="mt-4 flex items-center gap-3">
            <Button onClick={this.retry}>Retry</Button>
            <span className="text-sm">
              {left} {left === 1 ? 'attempt' : 'attempts'} remaining
            </span>
          </div>
        ) : (
          <p className="mt-4 text-sm font-medium">Maximum retry attempts reached. Please refresh the page.</p>
        )}
      </div>
    );
  }
}
