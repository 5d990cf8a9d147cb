import {
  AccountMessages,
  ChangePasswordSchema,
  Messages,
  TotpCodeSchema,
  type ChangePassword,
} from '@linkwise/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Shield, Trash2 } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import { z } from 'zod';
import { Button } from '../../components/ui/button';
import { ConfirmDialog, Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/field';
import { PasswordField } from '../../components/vault/password-field';
import { api, errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { fieldError, securityKey, sessionsKey, useSecurityOverview } from './account-api';
import { SecretList } from './secret-list';

function Row({
  icon,
  title,
  detail,
  children,
  danger,
}: {
  icon: ReactNode;
  title: string;
  detail?: string;
  children: ReactNode;
  danger?: boolean;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <span className="flex flex-col text-sm">
        <span className={`flex items-center gap-2 font-medium ${danger ? 'text-red-600 dark:text-red-400' : ''}`}>
          {icon} {title}
        </span>
        {detail && <span className="text-xs text-slate-500 dark:text-slate-400">{detail}</span>}
      </span>
      {children}
    </li>
  );
}

const ChangeFormSchema = ChangePasswordSchema.extend({ confirmPassword: z.string() }).refine(
  (v) => v.newPassword === v.confirmPassword,
  { error: Messages.passwordsDontMatch, path: ['confirmPassword'] },
);
type ChangeForm = z.infer<typeof ChangeFormSchema>;

function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const client = useQueryClient();
  const { register, handleSubmit, reset, setError, formState } = useForm<ChangeForm>({
    resolver: zodResolver(ChangeFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const change = useMutation({
    mutationFn: (body: ChangePassword) => api.changePassword({ body }),
    onSuccess: async () => {
      toast.success('Password changed. Your other devices are signed out.');
      reset();
      onOpenChange(false);
      await client.invalidateQueries({ queryKey: sessionsKey });
    },
    onError: (error) => {
      for (const field of ['currentPassword', 'newPassword'] as const) {
        const message = fieldError(error, field);
        if (message) setError(field, { message });
      }
      toast.error(errorMessage(error, 'Could not change the password. Please try again.'));
    },
  });
  const { errors } = formState;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Change Password"
      description="Your other devices will be signed out; API tokens keep working."
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) =>
          void handleSubmit(({ currentPassword, newPassword }) => change.mutate({ currentPassword, newPassword }))(e)
        }
      >
        <PasswordField
          label="Current Password"
          autoComplete="current-password"
          autoFocus
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          error={errors.newPassword?.message}
          {...register('newPassword')}
        />
        <PasswordField
          label="Confirm New Password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Saving...' : 'Change Password'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const CodeFormSchema = z.object({ code: TotpCodeSchema });

function EnableTwoFactorDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const client = useQueryClient();
  const [codes, setCodes] = useState<string[]>();
  const setup = useMutation({ mutationFn: () => api.setupTwoFactor() });
  const { register, handleSubmit, setError, reset, formState } = useForm<{ code: string }>({
    resolver: zodResolver(CodeFormSchema),
    defaultValues: { code: '' },
  });
  const enable = useMutation({
    mutationFn: (code: string) => api.enableTwoFactor({ body: { code } }),
    onSuccess: async ({ recoveryCodes }) => {
      setCodes(recoveryCodes);
      await client.invalidateQueries({ queryKey: securityKey });
    },
    onError: (error) => setError('code', { message: errorMessage(error, AccountMessages.totpInvalid) }),
  });
  const close = (next: boolean) => {
    if (!next) {
      setCodes(undefined);
      setup.reset();
      reset();
      if (codes) toast.success('Two-factor authentication is on');
    }
    onOpenChange(next);
  };
  const [leaving, setLeaving] = useState(false);
  const { isIdle, mutate: start } = setup;
  useEffect(() => {
    if (open && isIdle) start();
  }, [open, isIdle, start]);
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Two-Factor Authentication"
      wide
      // The codes are shown only now: Escape, Close or a click outside asks before they go.
      {...(codes && { onRequestClose: () => setLeaving(true) })}
    >
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title="Saved your recovery codes?"
        description="They are shown only now. Without them, losing your phone can lock you out of your account."
        confirmLabel="I saved them"
        cancelLabel="Show the codes"
        onConfirm={() => close(false)}
      />
      {codes ? (
        <div className="space-y-4">
          <p className="text-sm">
            Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown
            only now.
          </p>
          <SecretList values={codes} label="Recovery codes" filename="linkwise-recovery-codes.txt" />
          <div className="flex justify-end">
            <Button onClick={() => close(false)}>I saved them</Button>
          </div>
        </div>
      ) : setup.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {errorMessage(setup.error, 'Could not start the set-up. Please try again.')}
        </p>
      ) : !setup.data ? (
        <p role="status" className="text-sm">
          Preparing...
        </p>
      ) : (
        <form
          noValidate
          className="space-y-4"
          onSubmit={(e) => void handleSubmit(({ code }) => enable.mutate(code))(e)}
        >
          <ol className="list-decimal space-y-2 pl-5 text-sm">
            <li>Scan this QR code with an authenticator app (1Password, Aegis, Google Authenticator...).</li>
            <li>Or type this key into it by hand:</li>
          </ol>
          <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
            <img
              src={setup.data.qrCode}
              alt="QR code for your authenticator app"
              className="size-48 rounded-lg bg-white p-2"
            />
            <code
              aria-label="Secret key"
              className="rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all select-all dark:bg-slate-800"
            >
              {setup.data.secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
          </div>
          <TextField
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            error={formState.errors.code?.message}
            {...register('code')}
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={enable.isPending}>
              {enable.isPending ? 'Checking...' : 'Turn On'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

const PasswordAndCodeSchema = z.object({
  password: z.string().min(1, { error: 'Password is required' }),
  code: z.string(),
});
type PasswordAndCode = z.infer<typeof PasswordAndCodeSchema>;

/** Password (and a code when `needsCode`) to confirm something that cannot be undone lightly. */
function useConfirmForm() {
  return useForm<PasswordAndCode>({
    resolver: zodResolver(PasswordAndCodeSchema),
    defaultValues: { password: '', code: '' },
  });
}

function DisableTwoFactorDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const client = useQueryClient();
  const { register, handleSubmit, setError, reset, formState } = useConfirmForm();
  const disable = useMutation({
    mutationFn: (body: PasswordAndCode) => api.disableTwoFactor({ body }),
    onSuccess: async () => {
      toast.success('Two-factor authentication is off');
      reset();
      onOpenChange(false);
      await client.invalidateQueries({ queryKey: securityKey });
    },
    onError: (error) => {
      const field = fieldError(error, 'password') ? 'password' : 'code';
      setError(field, { message: errorMessage(error, 'Could not turn it off. Please try again.') });
    },
  });
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Turn Off Two-Factor Authentication"
      description="Your password and a code from your app (or a recovery code) are needed."
    >
      <form noValidate className="space-y-4" onSubmit={(e) => void handleSubmit((v) => disable.mutate(v))(e)}>
        <PasswordField
          label="Password"
          autoComplete="current-password"
          autoFocus
          error={formState.errors.password?.message}
          {...register('password')}
        />
        <TextField
          label="Authentication code"
          autoComplete="one-time-code"
          error={formState.errors.code?.message}
          {...register('code')}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" disabled={disable.isPending}>
            Turn Off
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteAccountDialog({
  open,
  onOpenChange,
  needsCode,
  exportFirst,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  needsCode: boolean;
  exportFirst?: ReactNode;
}) {
  const logout = useAuth((s) => s.logout);
  const client = useQueryClient();
  const { register, handleSubmit, setError, formState } = useConfirmForm();
  const remove = useMutation({
    mutationFn: ({ password, code }: PasswordAndCode) =>
      api.deleteAccount({ body: { password, ...(code.trim() && { code: code.trim() }) } }),
    onSuccess: () => {
      // Signed out, the protected page hands over to the sign-in page, where the toast stays in view.
      logout();
      client.clear();
      toast.success('Your account and everything in it is deleted.');
    },
    onError: (error) => {
      const field = fieldError(error, 'password') ? 'password' : needsCode ? 'code' : 'password';
      setError(field, { message: errorMessage(error, 'Could not delete the account. Please try again.') });
    },
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Delete Account">
      <form noValidate className="space-y-4" onSubmit={(e) => void handleSubmit((v) => remove.mutate(v))(e)}>
        <p className="text-sm">
          This deletes your account at once with all your links, tags, saved credentials, API tokens and subscription.
          It cannot be undone.
        </p>
        {exportFirst ?? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Want to keep your links? Export them before you go.
          </p>
        )}
        <PasswordField
          label="Password"
          autoComplete="current-password"
          error={formState.errors.password?.message}
          {...register('password')}
        />
        {needsCode && (
          <TextField
            label="Authentication code"
            autoComplete="one-time-code"
            error={formState.errors.code?.message}
            {...register('code')}
          />
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" disabled={remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete Everything'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * Profile's Change Password, Two-Factor Authentication and Delete Account rows (list items of the
 * Security & Privacy card). `exportFirst` is what the deletion dialog offers to keep the links.
 */
export function AccountSecurityItems({ exportFirst }: { exportFirst?: ReactNode }) {
  const overview = useSecurityOverview();
  const [dialog, setDialog] = useState<'password' | 'enable' | 'disable' | 'delete'>();
  const openChange = (name: typeof dialog) => (open: boolean) => setDialog(open ? name : undefined);
  const twoFactor = overview.data?.twoFactorEnabled ?? false;
  return (
    <>
      <Row icon={<KeyRound className="size-4" aria-hidden />} title="Change Password">
        <Button variant="secondary" size="sm" onClick={() => setDialog('password')}>
          Change Password
        </Button>
      </Row>
      <Row
        icon={<Shield className="size-4" aria-hidden />}
        title="Two-Factor Authentication"
        detail={
          twoFactor
            ? `On · ${overview.data?.recoveryCodesLeft ?? 0} recovery codes left`
            : 'Off · a code from your phone at every sign-in'
        }
      >
        {twoFactor ? (
          <Button variant="secondary" size="sm" onClick={() => setDialog('disable')}>
            Disable
          </Button>
        ) : (
          <Button variant="secondary" size="sm" disabled={overview.isPending} onClick={() => setDialog('enable')}>
            Enable
          </Button>
        )}
      </Row>
      <Row icon={<Trash2 className="size-4" aria-hidden />} title="Delete Account" danger>
        <Button variant="danger" size="sm" onClick={() => setDialog('delete')}>
          Delete Account
        </Button>
      </Row>
      {/* Mounted only while open: a closed dialog forgets what was typed (passwords above all). */}
      {dialog === 'password' && <ChangePasswordDialog open onOpenChange={openChange('password')} />}
      {dialog === 'enable' && <EnableTwoFactorDialog open onOpenChange={openChange('enable')} />}
      {dialog === 'disable' && <DisableTwoFactorDialog open onOpenChange={openChange('disable')} />}
      {dialog === 'delete' && (
        <DeleteAccountDialog open onOpenChange={openChange('delete')} needsCode={twoFactor} exportFirst={exportFirst} />
      )}
    </>
  );
}
