import { ApiError } from '@linkwise/contract';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { api, serverFieldErrors } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { AuthCard, authErrorMessage, returnPath } from './auth-shared';
import { captchaToken } from './captcha';
import { RegisterFormFields, type RegisterForm } from './register-form';

export default function RegisterPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const login = useAuth((s) => s.login);
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<'email' | 'username' | 'password', string>>>();

  const onSubmit = async ({ email, username, password }: RegisterForm) => {
    try {
      const recaptchaToken = await captchaToken('register');
      const { user, token } = await api.register({
        body: { email, username, password, ...(recaptchaToken && { recaptchaToken }) },
      });
      login(user, token);
      toast.success('Welcome to Linkwise! Your account is ready.');
      await navigate(returnPath(location.search), { replace: true });
    } catch (failure) {
      const message = authErrorMessage(failure, 'Registration failed');
      const fields = fieldErrorsOf(failure);
      // A message that belongs to a field sits next to it; the banner is for the rest (the toast is the spec's).
      setError(Object.keys(fields).length > 0 ? undefined : message);
      setFieldErrors(fields);
      toast.error(message);
    }
  };

  return (
    <AuthCard title="Create your account" subtitle="Start organising your links with Linkwise">
      <RegisterFormFields onSubmit={onSubmit} error={error} fieldErrors={fieldErrors} />
      <p className="mt-4 text-center text-xs text-slate-500 dark:text-slate-400">
        By creating an account you agree to the{' '}
        <Link to="/terms" className="underline hover:text-slate-700 dark:hover:text-slate-200">
          Terms of Service
        </Link>{' '}
        and the{' '}
        <Link to="/privacy" className="underline hover:text-slate-700 dark:hover:text-slate-200">
          Privacy Policy
        </Link>
        .
      </p>
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-brand-600 hover:underline dark:text-brand-100">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

/** Which field a registration failure is about, so its message sits next to it. */
function fieldErrorsOf(failure: unknown): Partial<Record<'email' | 'username' | 'password', string>> {
  if (!(failure instanceof ApiError)) return {};
  if (failure.code === 'EMAIL_TAKEN') return { email: failure.message };
  if (failure.code === 'USERNAME_TAKEN') return { username: failure.message };
  const fields = serverFieldErrors(failure);
  return { email: fields.email, username: fields.username, password: fields.password };
}
