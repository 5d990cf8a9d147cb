import { zodResolver } from '@hookform/resolvers/zod';
import { ApiError, Messages, parseTags, UrlSchema, withDefaultScheme } from '@linkwise/contract';
import { Sparkles } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { api, errorMessage, serverFieldErrors } from '../../../lib/api';
import { useAuth } from '../../../lib/auth-store';
import { sealCredentials, useVault, VaultText, type EditableCredential } from '../../../lib/vault';
import { invalidateLinks, useAnalyze, useCategories, useCreateLink } from '../api';
import { CredentialFields, useCredentialEditor } from './credential-fields';
import { addTitleRule, LinkFieldRules, LinkFields, useOtherCategory } from './link-fields';

export const AddLinkFormSchema = z.object({
  // "example.com" is accepted as https://example.com.
  url: z.string().transform(withDefaultScheme).pipe(UrlSchema),
  title: addTitleRule,
  ...LinkFieldRules,
  isReadLater: z.boolean(),
});
type AddLinkForm = z.infer<typeof AddLinkFormSchema>;

const EMPTY: AddLinkForm = {
  url: '',
  title: '',
  description: '',
  category: '',
  tags: '',
  notes: '',
  isReadLater: false,
};

const NO_CREDENTIALS: EditableCredential[] = [];

interface Props {
  open: boolean;
  onClose: () => void;
  /** The server refused at the plan limit: show the upgrade dialog. */
  onLimitReached: () => void;
  /** Address and title to start from (the bookmarklet's `?add=<url>&title=<title>`). */
  initial?: { url: string; title: string } | undefined;
}

export function AddLinkDialog({ open, onClose, onLimitReached, initial }: Props) {
  return open ? <AddLinkDialogBody onClose={onClose} onLimitReached={onLimitReached} initial={initial} /> : null;
}

function AddLinkDialogBody({ onClose, onLimitReached, initial }: Omit<Props, 'open'>) {
  const categories = useCategories();
  const create = useCreateLink();
  const analyze = useAnalyze();
  const client = useQueryClient();
  const userId = useAuth((s) => s.user?.id);
  const credentials = useCredentialEditor(NO_CREDENTIALS);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [analyzeError, setAnalyzeError] = useState<string | null>(null);
  const formId = useId();
  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    watch,
    setError,
    setFocus,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<AddLinkForm>({
    resolver: zodResolver(AddLinkFormSchema),
    defaultValues: initial ? { ...EMPTY, url: initial.url, title: initial.title } : EMPTY,
  });

  const [otherCategory, setOtherCategory] = useOtherCategory(null, watch('category'), (value) =>
    setValue('category', value, { shouldDirty: true, shouldValidate: true }),
  );

  const requestClose = () => (isDirty || credentials.hasInput ? setConfirmDiscard(true) : onClose());

  const runAnalyze = async () => {
    const url = withDefaultScheme(getValues('url'));
    if (!url) {
      toast.error(Messages.urlRequiredForAnalysis);
      return;
    }
    try {
      const result = await analyze.mutateAsync(url);
      const data = result?.data;
      if (!data) {
        toast.error(Messages.analysisEmpty);
        return;
      }
      const fill = { shouldDirty: true, shouldValidate: true } as const;
      setValue('title', data.title, fill);
      setValue('description', data.description, fill);
      setValue('category', data.category, fill);
      setOtherCategory(data.otherCategory ?? null);
      setValue('tags', data.tags.join(', '), fill);
      setValue('isReadLater', data.isReadLater, fill);
      toast.success('URL analyzed successfully');
      setAnalyzeError(null);
    } catch (error) {
      // An address the server refuses as written is the URL field's error: there is no page to fill in for.
      if (error instanceof ApiError && error.code === 'VALIDATION_ERROR') {
        setAnalyzeError(null);
        setError('url', { message: serverFieldErrors(error).url ?? errorMessage(error, Messages.invalidUrl) });
        setFocus('url');
        return;
      }
      // The server names the reason ("Failed to analyze URL: The page answered 404 (not found)").
      const message = errorMessage(error, Messages.analysisFailed);
      setAnalyzeError(message);
      toast.error(message);
    }
  };

  const onSubmit = async (values: AddLinkForm) => {
    const items = credentials.commitDraft();
    if (items === null) return;
    const key = useVault.getState().key;
    if (items.length > 0 && (!key || !userId)) {
      toast.error(VaultText.lockedBeforeSave);
      useVault.getState().openPrompt();
      return;
    }
    let linkId: string;
    try {
      const link = await create.mutateAsync({
        url: values.url,
        title: values.title,
        description: values.description,
        category: values.category,
        tags: parseTags(values.tags),
        notes: values.notes,
        isReadLater: values.isReadLater,
      });
      linkId = link.id;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'LINK_LIMIT_REACHED') {
        onClose();
        onLimitReached();
        return;
      }
      const message = errorMessage(error, 'Failed to add link');
      toast.error(message);
      // The disabled Add button lost the keyboard's focus: it goes to the address, marked when it is the cause.
      const urlError =
        error instanceof ApiError && error.code === 'DUPLICATE_LINK' ? message : serverFieldErrors(error).url;
      if (urlError) setError('url', { message: urlError }, { shouldFocus: true });
      else setFocus('url');
      return;
    }
    // The link's id is part of each credential's additional data, so credentials are encrypted
    // once the server has named the link, and saved with a second call.
    if (items.length > 0 && key && userId) {
      try {
        const sealed = await sealCredentials(key, userId, linkId, items);
        await api.updateLink({ params: { id: linkId }, body: { credentials: sealed } });
        await invalidateLinks(client);
      } catch (error) {
        toast.error(
          `The link was added, but its credentials were not saved: ${errorMessage(error, 'please try again')}`,
        );
      }
    }
    onClose();
  };

  return (
    <>
      <Dialog
        open
        onOpenChange={(o) => !o && requestClose()}
        onRequestClose={requestClose}
        title="Add New Link"
        description="Paste a URL and let Linkwise fill in the details."
        wide
        footer={
          // Kept in view under the form while it scrolls (a phone's height).
          <div className="flex flex-row-reverse gap-2 sm:justify-start">
            <Button type="submit" form={formId} className="flex-1 sm:flex-none" disabled={isSubmitting}>
              {isSubmitting ? 'Adding...' : 'Add Link'}
            </Button>
            <Button variant="secondary" className="flex-1 sm:flex-none" onClick={requestClose}>
              Cancel
            </Button>
          </div>
        }
      >
        <form id={formId} noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-4">
          <div className="flex items-end gap-2">
            <TextField
              className="flex-1"
              label="URL"
              type="url"
              inputMode="url"
              placeholder="https://example.com/article"
              autoFocus
              error={errors.url?.message}
              {...register('url')}
            />
            {/* Busy, not disabled: a disabled button drops the keyboard's focus to the page. */}
            <Button
              variant="secondary"
              className={`aria-disabled:cursor-wait aria-disabled:opacity-70 ${errors.url ? 'mb-7' : ''}`}
              aria-disabled={analyze.isPending}
              onClick={() => {
                if (!analyze.isPending) void runAnalyze();
              }}
            >
              <Sparkles className="size-4" aria-hidden />
              {analyze.isPending ? 'Analyzing...' : 'Analyze'}
            </Button>
          </div>
          {analyzeError && (
            <p role="alert" className="-mt-2 text-sm text-amber-800 dark:text-amber-300">
              {analyzeError}. You can still add the link and fill in the details yourself.
            </p>
          )}
          <LinkFields
            register={register}
            errors={errors}
            categories={categories.data ?? []}
            titleLabel="Title (optional)"
            otherCategory={otherCategory}
          />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-brand-600" {...register('isReadLater')} />
            Mark as Read Later
          </label>
          <CredentialFields editor={credentials} />
        </form>
      </Dialog>
      <DiscardConfirm open={confirmDiscard} onOpenChange={setConfirmDiscard} onDiscard={onClose} />
    </>
  );
}

export function DiscardConfirm({
  open,
  onOpenChange,
  onDiscard,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDiscard: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Discard changes?"
      description="You have unsaved changes. If you close now, they will be lost."
      cancelLabel="Continue Editing"
      confirmLabel="Discard Changes"
      destructive
      onConfirm={onDiscard}
    />
  );
}
