import { zodResolver } from '@hookform/resolvers/zod';
import { ApiError, EmailSchema, Messages, PasswordSchema, UsernameSchema } from '@linkwise/contract';
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Logo } from '../../components/navbar';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { captchaToken } from '../auth/captcha';
import { api } from '../../lib/api';
import { handOffToken } from './hand-off';

/** Username and confirmation are optional here; the confirmation is checked only when given. */
export const ExtensionAuthSchema = z
  .object({
    email: EmailSchema,
    password: PasswordSchema,
    username: z.union([z.literal(''), UsernameSchema]).optional(),
    confirmPassword: z.string().optional(),
  })
  .refine((v) => !v.confirmPassword || v.confirmPassword === v.password, {
    error: Messages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
type Form = z.infer<typeof ExtensionAuthSchema>;

export const CONNECTED_CLOSE_MS = 2000;
export const SUCCESS_REDIRECT_MS = 1000;

/** The spec's sentences for extension sign-in failures (§8). */
export function extensionAuthError(error: unknown, mode: 'login' | 'register'): string {
  if (!(error instanceof ApiError)) return 'Connection failed. Please check your internet connection and try again.';
  if (error.code === 'RECAPTCHA_FAILED') return 'Security verification failed. Please try again.';
  switch (error.status) {
    case 401:
      return 'Invalid email or password. Please check your credentials.';
    case 409:
      return mode === 'login'
        ? 'Account issue. Please try registering instead.'
        : 'This email or username is already taken. Please try signing in or use different credentials.';
    case 400:
      return 'Please fill in all required fields correctly.';
    default:
      return error.message || (mode === 'login' ? 'Login failed' : 'Registration failed');
  }
}

function Connected() {
  useEffect(() => {
    // Tell the opener (the extension's page) that it worked; the token stays in this tab's address,
    // where only the extension reads it, so nothing secret is posted to an unknown window.
    (window.opener as Window | null)?.postMessage({ type: 'LINKWISE_AUTH_SUCCESS' }, '*');
    const timer = setTimeout(() => window.close(), CONNECTED_CLOSE_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="text-center">
      <CheckCircle2 className="mx-auto size-14 text-green-600" aria-hidden />
      <h1 className="mt-4 text-2xl font-bold">Successfully Connected!</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        Your extension is now connected. This tab closes by itself.
      </p>
    </div>
  );
}

export default function ExtensionAuthPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [mode, setMode] = useState<'login' | 'register'>('login');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<Form>({
    resolver: zodResolver(ExtensionAuthSchema),
    defaultValues: { email: '', password: '', username: '', confirmPassword: '' },
  });

  const legacyToken = params.get('token');
  const connected = params.get('success') === 'true' || Boolean(legacyToken && params.get('user'));

  useEffect(() => {
    // An address that still carries a token (an older extension's hand-off) is passed on and then
    // replaced, so the token does not stay in the address bar or the history.
    if (!legacyToken) return;
    handOffToken(legacyToken, params.get('ext'));
    const next = new URLSearchParams(params);
    next.delete('token');
    next.delete('user');
    next.set('success', 'true');
    void navigate(`/extension/auth?${next.toString()}`, { replace: true });
  }, [legacyToken, params, navigate]);

  if (connected) {
    return (
      <Shell>
        <Connected />
      </Shell>
    );
  }

  const toggle = () => {
    setMode((m) => (m === 'login' ? 'register' : 'login'));
    setError(null);
    clearErrors();
  };

  const onSubmit = async (values: Form) => {
    setError(null);
    try {
      const recaptchaToken = await captchaToken(mode === 'login' ? 'login' : 'register');
      const body = { email: values.email, password: values.password, ...(recaptchaToken && { recaptchaToken }) };
      const result =
        mode === 'login'
          ? await api.extensionLogin({ body })
          : await api.extensionRegister({
              body: { ...body, username: values.username || values.email.split('@')[0] || values.email },
            });
      setDone(true);
      handOffToken(result.token, params.get('ext'));
      // The connected state's address names no token: it never reaches the address bar or history.
      setTimeout(() => void navigate('/extension/auth?success=true', { replace: true }), SUCCESS_REDIRECT_MS);
    } catch (e) {
      setError(extensionAuthError(e, mode));
    }
  };

  const clearError = () => setError(null);
  const email = register('email');
  const password = register('password');

  return (
    <Shell>
      <h1 className="text-center text-2xl font-bold">
        {mode === 'login' ? 'Connect your extension' : 'Create your account'}
      </h1>
      <p className="mt-1 text-center text-sm text-slate-600 dark:text-slate-400">
        {mode === 'login'
          ? 'Sign in to connect the Linkwise extension.'
          : 'Create an account and connect the extension.'}
      </p>
      {error && (
        <p
          role="alert"
          className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950/50 dark:text-red-300"
        >
          {error}
        </p>
      )}
      {done ? (
        <p role="status" className="mt-6 text-center text-green-700 dark:text-green-400">
          Signed in. Connecting...
        </p>
      ) : (
        <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="mt-6 space-y-4">
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...email}
            onFocus={clearError}
          />
          {mode === 'register' && (
            <TextField
              label="Username (optional)"
              autoComplete="username"
              error={errors.username?.message}
              {...register('username')}
            />
          )}
          <TextField
            label="Password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            error={errors.password?.message}
            {...password}
            onFocus={clearError}
          />
          {mode === 'register' && (
            <TextField
              label="Confirm Password (optional)"
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
          )}
          <Button type="submit" className="w-full" disabled={isSubmitting}>
            {isSubmitting ? 'Please wait...' : mode === 'login' ? 'Sign In' : 'Create Account'}
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm">
        {mode === 'login' ? "Don't have an account? " : 'Already have an account? '}
        <button
          type="button"
          className="font-medium text-brand-600 hover:underline dark:text-brand-100"
          onClick={toggle}
        >
          {mode === 'login' ? 'Create one' : 'Sign in'}
        </button>
      </p>
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-10 dark:bg-slate-950">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-6 flex justify-center">
          <Logo />
        </div>
        {children}
      </div>
    </main>
  );
}
