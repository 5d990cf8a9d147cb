import { zodResolver } from '@hookform/resolvers/zod';
import { AccountMessages, EmailSchema, Messages, PasswordSchema } from '@linkwise/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { z } from 'zod';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { PasswordField } from '../../components/vault/password-field';
import { api, serverFieldErrors } from '../../lib/api';
import { AuthCard, authErrorMessage } from './auth-shared';
import { captchaToken } from './captcha';
import { useAuthFeatures } from './login-page';

const linkClass = 'font-medium text-brand-600 hover:underline dark:text-brand-100';

/** Without SMTP no link can be emailed: the page says who can help instead of offering a form that fails. */
function ResetUnavailable() {
  return (
    <p
      role="status"
      className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      {AccountMessages.resetUnavailable}
    </p>
  );
}

/** /forgot-password: asks for the email and always answers the same sentence. */
export function ForgotPasswordPage() {
  const features = useAuthFeatures();
  const [sent, setSent] = useState<string>();
  const [error, setError] = useState<string>();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({
    resolver: zodResolver(z.object({ email: EmailSchema })),
    defaultValues: { email: '' },
  });
  const onSubmit = async ({ email }: { email: string }) => {
    try {
      const recaptchaToken = await captchaToken('login');
      setSent((await api.forgotPassword({ body: { email, ...(recaptchaToken && { recaptchaToken }) } })).message);
      setError(undefined);
    } catch (failure) {
      const message = authErrorMessage(failure, 'Something went wrong. Please try again.');
      setError(message);
      toast.error(message);
    }
  };
  return (
    <AuthCard title="Reset your password" subtitle="We will email you a link to choose a new one">
      {features.data?.passwordReset === false ? (
        <ResetUnavailable />
      ) : sent ? (
        <p
          role="status"
          className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800 dark:bg-green-950 dark:text-green-100"
        >
          {sent}
        </p>
      ) : (
        <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-4">
          {error && (
            <p
              role="alert"
              className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-200"
            >
              {error}
            </p>
          )}
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...register('email')}
          />
          <Button type="submit" className="w-full" disabled={isSubmitting}>
            {isSubmitting ? 'Sending...' : 'Send Reset Link'}
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className={linkClass}>
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}

const ResetFormSchema = z
  .object({ password: PasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { error: Messages.passwordsDontMatch, path: ['confirmPassword'] });
type ResetForm = z.infer<typeof ResetFormSchema>;

/** /reset-password?token=…: the emailed link's page; every device is signed out afterwards. */
export function ResetPasswordPage() {
  const features = useAuthFeatures();
  const location = useLocation();
  const navigate = useNavigate();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [error, setError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<ResetForm>({
    resolver: zodResolver(ResetFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const onSubmit = async ({ password }: ResetForm) => {
    try {
      await api.resetPassword({ body: { token, password } });
      toast.success('Your password is changed. Sign in with the new one.');
      await navigate('/login', { replace: true });
    } catch (failure) {
      const fields = serverFieldErrors(failure);
      if (fields.password) setFieldError('password', { message: fields.password });
      const message = authErrorMessage(failure, 'Something went wrong. Please try again.');
      setError(fields.password ? undefined : message);
      toast.error(message);
    }
  };
  return (
    <AuthCard title="Choose a new password" subtitle="Every device signed in to your account will be signed out">
      {features.data?.passwordReset === false ? (
        <ResetUnavailable />
      ) : !token ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {AccountMessages.resetInvalid}
        </p>
      ) : (
        <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-4">
          {error && (
            <p
              role="alert"
              className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-200"
            >
              {error}{' '}
              <Link to="/forgot-password" className={linkClass}>
                Ask for a new link
              </Link>
            </p>
          )}
          <PasswordField
            label="New Password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <PasswordField
            label="Confirm Password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
          <Button type="submit" className="w-full" disabled={isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Set New Password'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
