import { zodResolver } from '@hookform/resolvers/zod';
import { RegisterFormSchema } from '@linkwise/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';

export type RegisterForm = z.infer<typeof RegisterFormSchema>;

export function RegisterFormFields({ onSubmit }: { onSubmit: (values: RegisterForm) => Promise<void> }) {
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
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <TextField label="Username" autoComplete="username" error={errors.username?.message} {...register('username')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Confirm Password"
        type="password"
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
