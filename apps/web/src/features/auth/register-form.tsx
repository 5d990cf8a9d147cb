import { zodResolver } from '@hookform/resolvers/zod';
import { RegisterFormSchema } from '@linkwise/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { PasswordField } from '../../components/vault/password-field';

export type RegisterForm = z.infer<typeof RegisterFormSchema>;

type FieldName = 'email' | 'username' | 'password';

interface Props {
  onSubmit: (values: RegisterForm) => Promise<void>;
  /** The failure, shown beside the form as well as in the toast. */
  error?: string | undefined;
  /** The server's word on single fields (email taken, a too common password). */
  fieldErrors?: Partial<Record<FieldName, string>> | undefined;
}

export function RegisterFormFields({ onSubmit, error, fieldErrors = {} }: Props) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof RegisterFormSchema>, unknown, RegisterForm>({
    resolver: zodResolver(RegisterFormSchema),
    defaultValues: { email: '', username: '', password: '', confirmPassword: '' },
  });
  return (
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
        error={errors.email?.message ?? fieldErrors.email}
        {...register('email')}
      />
      <TextField
        label="Username"
        autoComplete="username"
        error={errors.username?.message ?? fieldErrors.username}
        {...register('username')}
      />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        error={errors.password?.message ?? fieldErrors.password}
        {...register('password')}
      />
      <PasswordField
        label="Confirm Password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
