import { zodResolver } from '@hookform/resolvers/zod';
import { EmailSchema, PasswordSchema } from '@linkwise/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';

export const LoginFormSchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type LoginForm = z.infer<typeof LoginFormSchema>;

/** Email and password with the spec's messages; `onSubmit` does the call. */
export function LoginFormFields({ onSubmit }: { onSubmit: (values: LoginForm) => Promise<void> }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({ resolver: zodResolver(LoginFormSchema), defaultValues: { email: '', password: '' } });
  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-4">
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
