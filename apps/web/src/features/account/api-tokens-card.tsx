import { zodResolver } from '@hookform/resolvers/zod';
import { ApiTokenCreateSchema, type ApiTokenCreate } from '@linkwise/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import { z } from 'zod';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { inputClass, TextField } from '../../components/ui/field';
import { api, errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { sessionsKey, tokensKey, useApiTokens, useRevoke } from './account-api';
import { lastUse } from './sessions-card';
import { SecretList } from './secret-list';

const card = 'rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900';

const FormSchema = z.object({
  name: ApiTokenCreateSchema.shape.name,
  scope: z.enum(['read', 'write']),
  expiry: z.string(),
});
type Form = z.infer<typeof FormSchema>;

/** Profile: personal tokens for scripts, `Authorization: Bearer <token>` on the REST API. */
export function ApiTokensCard() {
  const client = useQueryClient();
  const tokens = useApiTokens();
  const revoke = useRevoke();
  const [created, setCreated] = useState<string>();
  const [confirming, setConfirming] = useState<{ id: string; name: string }>();
  const shown = useRef<HTMLDivElement>(null);
  // The one-time token is what to act on next: its Copy button takes the focus from Create Token.
  useEffect(() => {
    if (created) shown.current?.querySelector('button')?.focus();
  }, [created]);
  const { register, handleSubmit, reset, setFocus, formState } = useForm<Form>({
    resolver: zodResolver(FormSchema),
    defaultValues: { name: '', scope: 'read', expiry: '90' },
  });
  const create = useMutation({
    mutationFn: (body: ApiTokenCreate) => api.createApiToken({ body }),
    onSuccess: async ({ token }) => {
      setCreated(token);
      reset();
      await Promise.all([
        client.invalidateQueries({ queryKey: tokensKey }),
        client.invalidateQueries({ queryKey: sessionsKey }),
      ]);
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not create the token. Please try again.')),
  });
  const submit = ({ name, scope, expiry }: Form) =>
    create.mutate({ name, scope, ...(expiry !== 'never' && { expiresInDays: Number(expiry) }) });
  return (
    <section aria-labelledby="api-tokens" className={card}>
      <h2 id="api-tokens" className="text-lg font-semibold">
        API Tokens
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        For scripts and other apps: send <code className="font-mono">Authorization: Bearer &lt;token&gt;</code> to the
        REST API (
        <a className="underline" href="/api/openapi.json">
          OpenAPI document
        </a>
        ). Read tokens can only read; no token can change your account.
      </p>
      {created && (
        <div
          ref={shown}
          role="status"
          className="mt-4 space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950"
        >
          <p className="text-sm font-medium">Copy your new token now. It is shown only once.</p>
          <SecretList values={[created]} label="New API token" />
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setCreated(undefined);
              setFocus('name');
            }}
          >
            Done
          </Button>
        </div>
      )}
      <form
        noValidate
        className="mt-4 grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end"
        onSubmit={(e) => void handleSubmit(submit)(e)}
      >
        <TextField
          label="Token name"
          placeholder="e.g. Backup script"
          error={formState.errors.name?.message}
          {...register('name')}
        />
        <label className="text-sm font-medium text-slate-700 dark:text-slate-200">
          <span className="mb-1 block">Access</span>
          <select className={inputClass} {...register('scope')}>
            <option value="read">Read only</option>
            <option value="write">Read and write</option>
          </select>
        </label>
        <label className="text-sm font-medium text-slate-700 dark:text-slate-200">
          <span className="mb-1 block">Expires</span>
          <select className={inputClass} {...register('expiry')}>
            <option value="30">In 30 days</option>
            <option value="90">In 90 days</option>
            <option value="365">In a year</option>
            <option value="never">Never</option>
          </select>
        </label>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create Token'}
        </Button>
      </form>
      <ul className="mt-4 divide-y divide-slate-100 dark:divide-slate-800" aria-label="Your API tokens">
        {tokens.data?.length === 0 && (
          <li className="py-3 text-sm text-slate-500 dark:text-slate-400">No tokens yet.</li>
        )}
        {tokens.data?.map((t) => (
          <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <span className="flex min-w-0 flex-col text-sm">
              <span className="truncate font-medium">
                {t.name}{' '}
                <span className="text-xs font-normal text-slate-500 dark:text-slate-400">
                  ({t.scope === 'write' ? 'read and write' : 'read only'})
                </span>
              </span>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                Created {formatDate(t.createdAt)} · {lastUse(t)} ·{' '}
                {t.expiresAt ? `expires ${formatDate(t.expiresAt)}` : 'never expires'}
              </span>
            </span>
            <Button variant="secondary" size="sm" onClick={() => setConfirming({ id: t.id, name: t.name })}>
              Revoke
            </Button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== undefined}
        onOpenChange={(open) => !open && setConfirming(undefined)}
        title="Revoke this token?"
        description={`Scripts using “${confirming?.name ?? ''}” stop working at once.`}
        confirmLabel="Revoke"
        destructive
        onConfirm={() => confirming && revoke.token.mutate(confirming.id)}
      />
    </section>
  );
}
