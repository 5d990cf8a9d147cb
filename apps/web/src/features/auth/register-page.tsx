import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { AuthCard, authErrorMessage, returnPath } from './auth-shared';
import { RegisterFormFields, type RegisterForm } from './register-form';

export default function RegisterPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const login = useAuth((s) => s.login);

  const onSubmit = async ({ email, username, password }: RegisterForm) => {
    try {
      const { user, token } = await api.register({ body: { email, username, password } });
      login(user, token);
      toast.success('Welcome to Linkwise! Your account is ready.');
      await navigate(returnPath(location.search), { replace: true });
    } catch (error) {
      toast.error(authErrorMessage(error, 'Registration failed'));
    }
  };

  return (
    <AuthCard title="Create your account" subtitle="Start organising your links with Linkwise">
      <RegisterFormFields onSubmit={onSubmit} />
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-brand-600 hover:underline dark:text-brand-100">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
