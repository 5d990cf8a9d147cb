import { ApiError } from '@linkwise/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { AuthCard, authErrorMessage, returnPath } from './auth-shared';
import { captchaToken } from './captcha';
import { LoginFormFields, type LoginForm } from './login-form';

export function useAuthFeatures() {
  return useQuery({ queryKey: ['auth-features'], queryFn: () => api.authFeatures(), staleTime: Infinity });
}

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const login = useAuth((s) => s.login);
  const features = useAuthFeatures();
  const [error, setError] = useState<string>();
  const [needsCode, setNeedsCode] = useState(false);
  const onSubmit = async (values: LoginForm) => {
    try {
      const recaptchaToken = await captchaToken('login');
      const { user, token } = await api.login({ body: { ...values, ...(recaptchaToken && { recaptchaToken }) } });
      login(user, token);
      toast.success('Welcome back!');
      await navigate(returnPath(location.search), { replace: true });
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'TOTP_REQUIRED') {
        // The password was right: the second step asks for the code, without an error.
        setNeedsCode(true);
        setError(undefined);
        return;
      }
      const message = authErrorMessage(failure, 'Login failed');
      setError(message);
      toast.error(message);
    }
  };
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to your Linkwise account">
      <LoginFormFields onSubmit={onSubmit} error={error} needsCode={needsCode} />
      {features.data?.passwordReset && (
        <p className="mt-4 text-center text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-600 hover:underline dark:text-brand-100">
            Forgot your password?
          </Link>
        </p>
      )}
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        Don&apos;t have an account?{' '}
        <Link to="/register" className="font-medium text-brand-600 hover:underline dark:text-brand-100">
          Create one
        </Link>
      </p>
    </AuthCard>
  );
}
