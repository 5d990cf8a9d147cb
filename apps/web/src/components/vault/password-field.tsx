import { Eye, EyeOff } from 'lucide-react';
import { forwardRef, useId, useState, type InputHTMLAttributes } from 'react';
import { inputClass } from '../ui/field';
import { passwordStrength, STRENGTH_LABELS } from '../../lib/password-strength';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  error?: string | undefined;
  hint?: string;
}

/** A labelled password input with a show/hide toggle; its error is announced and tied to it. */
export const PasswordField = forwardRef<HTMLInputElement, Props>(function PasswordField(
  { label, error, hint, id, className = '', ...props },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          type={visible ? 'text' : 'password'}
          spellCheck={false}
          autoCapitalize="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : hint ? hintId : undefined}
          className={`${inputClass} pr-11`}
          {...props}
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-100"
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          aria-controls={inputId}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
        </button>
      </div>
      {hint && !error && (
        <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
});

const BAR_COLORS = ['bg-red-500', 'bg-orange-500', 'bg-amber-500', 'bg-lime-500', 'bg-green-600'];

/** Four bars and a word; announced as a meter so screen readers hear the level too. */
export function StrengthMeter({ password }: { password: string }) {
  const { score, label } = passwordStrength(password);
  const color = BAR_COLORS[score] ?? 'bg-red-500';
  const filled = password ? Math.max(1, score) : 0;
  return (
    <div className="space-y-1">
      <div
        role="meter"
        aria-label="Master password strength"
        aria-valuemin={0}
        aria-valuemax={STRENGTH_LABELS.length - 1}
        aria-valuenow={score}
        aria-valuetext={password ? label : 'Empty'}
        className="grid grid-cols-4 gap-1"
      >
        {[1, 2, 3, 4].map((bar) => (
          <span
            key={bar}
            className={`h-1.5 rounded-full ${bar <= filled ? color : 'bg-slate-200 dark:bg-slate-700'}`}
          />
        ))}
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400" aria-hidden>
        Strength: <span className="font-medium">{password ? label : '–'}</span>
      </p>
    </div>
  );
}
