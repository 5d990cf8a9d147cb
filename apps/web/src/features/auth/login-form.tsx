import { zodResolver } from '@hookform/resolvers/zod';
import { EmailSchema, PasswordSchema } from '@linkwise/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { PasswordField } from '../../components/vault/password-field';

export const LoginFormSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  totpCode: z.string().optional(),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

interface Props {
  onSubmit: (values: LoginForm) => Promise<void>;
  /** The sign-in failure, shown beside the form as well as in the toast. */
  error?: string | undefined;
  /** The account has two-factor sign-in on: ask for a code. */
  needsCode?: boolean;
}

/** Email and password with the spec's messages (and a code once the server asks for one); `onSubmit` does the call. */
export function LoginFormFields({ onSubmit, error, needsCode = false }: Props) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({
    resolver: zodResolver(LoginFormSchema),
    defaultValues: { email: '', password: '', totpCode: '' },
  });
  const submit = (values: LoginForm) => {
    const { totpCode, ...rest } = values;
    return onSubmit(needsCode && totpCode?.trim() ? { ...rest, totpCode: totpCode.trim() } : rest);
  };
  return (
    <form noValidate onSubmit={(e) => void handleSubmit(submit)(e)} className="space-y-4">
      {error && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-200"
        >
          {error}
        </p>
      )}
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      {needsCode && (
        <TextField
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          hint="The 6-digit code from your authenticator app, or one of your recovery codes"
          {...register('totpCode')}
        />
      )}
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
