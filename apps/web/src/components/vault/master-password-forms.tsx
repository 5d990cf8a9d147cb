import { zodResolver } from '@hookform/resolvers/zod';
import { Messages, VaultError } from '@linkwise/contract';
import { AlertTriangle } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import { z } from 'zod';
import { MIN_MASTER_LENGTH, MIN_MASTER_STRENGTH, passwordStrength } from '../../lib/password-strength';
import { useVault, VaultText } from '../../lib/vault';
import { Button } from '../ui/button';
import { PasswordField, StrengthMeter } from './password-field';

const newMaster = z
  .string()
  .min(MIN_MASTER_LENGTH, { error: VaultText.masterTooShort })
  .refine((v) => passwordStrength(v).score >= MIN_MASTER_STRENGTH, { error: VaultText.masterTooWeak });

export const SetupVaultSchema = z
  .object({
    masterPassword: newMaster,
    confirmPassword: z.string(),
    acknowledged: z.boolean().refine((v) => v, { error: VaultText.acknowledge }),
  })
  .refine((v) => v.masterPassword === v.confirmPassword, {
    error: Messages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
type SetupValues = z.infer<typeof SetupVaultSchema>;

export const ChangeMasterSchema = z
  .object({
    currentPassword: z.string().min(1, { error: VaultText.masterRequired }),
    newPassword: newMaster,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { error: Messages.passwordsDontMatch, path: ['confirmPassword'] })
  .refine((v) => v.newPassword !== v.currentPassword, { error: VaultText.sameAsCurrent, path: ['newPassword'] });
type ChangeValues = z.infer<typeof ChangeMasterSchema>;

const UnlockSchema = z.object({ masterPassword: z.string().min(1, { error: VaultText.masterRequired }) });
type UnlockValues = z.infer<typeof UnlockSchema>;

const isWrongPassword = (error: unknown) => error instanceof VaultError && error.reason === 'wrong-password';
const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'Something went wrong. Please try again.';

/** Forms here may render inside another form's React tree (dialogs): keep their submit to themselves. */
const own = (submit: (e?: React.BaseSyntheticEvent) => Promise<void>) => (e: React.FormEvent<HTMLFormElement>) => {
  e.stopPropagation();
  void submit(e);
};

/** The two facts a person must know before choosing a master password. */
export function MasterPasswordWarning() {
  return (
    <div
      role="note"
      className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100"
    >
      <AlertTriangle className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="space-y-1">
        <p>
          <strong>Your master password cannot be recovered.</strong> It never leaves this browser, so nobody, not even
          Linkwise, can reset it. If you forget it, your stored credentials are lost; you can only reset the vault,
          which deletes them.
        </p>
        <p>
          <strong>Use a different password from your Linkwise login password.</strong> Your login password is sent to
          our server; your master password never is.
        </p>
      </div>
    </div>
  );
}

/** First use: choose a master password (confirmed, with a strength meter and the warning). */
export function SetupVaultForm({ onDone }: { onDone?: () => void }) {
  const setup = useVault((s) => s.setup);
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SetupValues>({
    resolver: zodResolver(SetupVaultSchema),
    defaultValues: { masterPassword: '', confirmPassword: '', acknowledged: false },
  });
  const onSubmit = async (values: SetupValues) => {
    try {
      await setup(values.masterPassword);
      toast.success(VaultText.created);
      onDone?.();
    } catch (error) {
      setError('root', { message: messageOf(error) });
    }
  };
  return (
    <form noValidate onSubmit={own(handleSubmit(onSubmit))} className="space-y-4" aria-label="Set up your vault">
      <MasterPasswordWarning />
      <PasswordField
        label="Master password"
        autoComplete="new-password"
        hint={`At least ${MIN_MASTER_LENGTH} characters. A passphrase of several random words works well.`}
        error={errors.masterPassword?.message}
        {...register('masterPassword')}
      />
      <StrengthMeter password={watch('masterPassword')} />
      <PasswordField
        label="Confirm master password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <div>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 accent-brand-600"
            aria-invalid={errors.acknowledged ? true : undefined}
            {...register('acknowledged')}
          />
          I understand that a forgotten master password cannot be recovered.
        </label>
        {errors.acknowledged && (
          <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
            {errors.acknowledged.message}
          </p>
        )}
      </div>
      {errors.root && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.root.message}
        </p>
      )}
      <Button type="submit" className="w-full sm:w-auto" disabled={isSubmitting}>
        {isSubmitting ? 'Creating vault...' : 'Create Vault'}
      </Button>
    </form>
  );
}

/** Unlock: a wrong password says so and keeps what was typed, so it can be corrected. */
export function UnlockVaultForm({ onDone, autoFocus }: { onDone?: () => void; autoFocus?: boolean }) {
  const unlock = useVault((s) => s.unlock);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<UnlockValues>({ resolver: zodResolver(UnlockSchema), defaultValues: { masterPassword: '' } });
  const onSubmit = async ({ masterPassword }: UnlockValues) => {
    try {
      await unlock(masterPassword);
      toast.success(VaultText.unlocked);
      onDone?.();
    } catch (error) {
      setError('masterPassword', { message: isWrongPassword(error) ? VaultText.wrongPassword : messageOf(error) });
      setFocus('masterPassword', { shouldSelect: true });
    }
  };
  return (
    <form noValidate onSubmit={own(handleSubmit(onSubmit))} className="space-y-4" aria-label="Unlock your vault">
      <PasswordField
        label="Master password"
        autoComplete="current-password"
        autoFocus={autoFocus}
        error={errors.masterPassword?.message}
        {...register('masterPassword')}
      />
      <Button type="submit" className="w-full sm:w-auto" disabled={isSubmitting}>
        {isSubmitting ? 'Unlocking...' : 'Unlock'}
      </Button>
    </form>
  );
}

/** Change the master password: the vault key is re-wrapped; no credential is re-encrypted. */
export function ChangeMasterPasswordForm() {
  const changePassword = useVault((s) => s.changePassword);
  const {
    register,
    handleSubmit,
    watch,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangeValues>({
    resolver: zodResolver(ChangeMasterSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const onSubmit = async (values: ChangeValues) => {
    try {
      await changePassword(values.currentPassword, values.newPassword);
      reset();
      toast.success(VaultText.changed);
    } catch (error) {
      if (isWrongPassword(error)) {
        setError('currentPassword', { message: VaultText.wrongPassword });
        setFocus('currentPassword', { shouldSelect: true });
      } else {
        setError('root', { message: messageOf(error) });
      }
    }
  };
  return (
    <form noValidate onSubmit={own(handleSubmit(onSubmit))} className="space-y-4" aria-label="Change master password">
      <PasswordField
        label="Current master password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <PasswordField
        label="New master password"
        autoComplete="new-password"
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <StrengthMeter password={watch('newPassword')} />
      <PasswordField
        label="Confirm new master password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      {errors.root && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.root.message}
        </p>
      )}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Changing...' : 'Change Master Password'}
      </Button>
    </form>
  );
}
