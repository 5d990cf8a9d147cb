import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { AuthCard, authErrorMessage, returnPath } from './auth-shared';
import { LoginFormFields, type LoginForm } from './login-form';

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const login = useAuth((s) => s.login);

  const onSubmit = async (values: LoginForm) => {
    try {
      const { user, token } = await api.login({ body: values });
      login(user, token);
      toast.success('Welcome back!');
      await navigate(returnPath(location.search), { replace: true });
    } catch (error) {
      toast.error(authErrorMessage(error, 'Login failed'));
    }
  };

  return (
    <AuthCard title="Welcome back" subtitle="Sign in to your Linkwise account">
      <LoginFormFields onSubmit={onSubmit} />
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        Don&apos;t have an account?{' '}
        <Link to="/register" className="font-medium text-brand-600 hover:underline dark:text-brand-100">
          Create one
        </Link>
      </p>
    </AuthCard>
  );
}
