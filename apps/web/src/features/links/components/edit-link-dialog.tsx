import { zodResolver } from '@hookform/resolvers/zod';
import { parseTags, type Link } from '@linkwise/contract';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { useAuth } from '../../../lib/auth-store';
import { openCredentials, sealCredentials, useVault, VaultText, type EditableCredential } from '../../../lib/vault';
import { useCategories, useUpdateLink } from '../api';
import { DiscardConfirm } from './add-link-dialog';
import { CredentialFields, useCredentialEditor } from './credential-fields';
import { editTitleRule, LinkFieldRules, LinkFields, useOtherCategory } from './link-fields';

export const EditLinkFormSchema = z.object({
  title: editTitleRule,
  ...LinkFieldRules,
});
type EditLinkForm = z.infer<typeof EditLinkFormSchema>;

export function EditLinkDialog({ link, onClose }: { link: Link | null; onClose: () => void }) {
  return link ? <EditLinkDialogBody key={link.id} link={link} onClose={onClose} /> : null;
}

function EditLinkDialogBody({ link, onClose }: { link: Link; onClose: () => void }) {
  const categories = useCategories();
  const update = useUpdateLink();
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const credentials = useCredentialEditor();
  const key = useVault((s) => s.key);
  const userId = useAuth((s) => s.user?.id);
  const { loaded, load } = credentials;

  // Decrypt the stored credentials once the vault is unlocked (now, or later from this dialog).
  useEffect(() => {
    if (loaded || !key || !userId) return;
    let cancelled = false;
    void openCredentials(key, userId, link.id, link.credentials).then((items) => {
      if (!cancelled) load(items);
    });
    return () => {
      cancelled = true;
    };
  }, [loaded, load, key, userId, link.id, link.credentials]);

  const {
    register,
    handleSubmit,
    setValue,
    watch,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<EditLinkForm>({
    resolver: zodResolver(EditLinkFormSchema),
    defaultValues: {
      title: link.title,
      description: link.description,
      category: link.category ?? '',
      tags: link.tags.join(', '),
      notes: link.notes,
    },
  });

  // The analysis's runner-up, while the category is still its choice (the server sends it only then).
  const [otherCategory] = useOtherCategory(link.otherCategory ?? null, watch('category'), (value) =>
    setValue('category', value, { shouldDirty: true, shouldValidate: true }),
  );

  const formId = useId();
  const changed = isDirty || credentials.changed || credentials.draftChanged;
  const requestClose = () => (changed ? setConfirmDiscard(true) : onClose());

  const onSubmit = async (values: EditLinkForm, items: EditableCredential[]) => {
    const body = { ...values, tags: parseTags(values.tags) };
    let sealed;
    if (credentials.changed || items !== credentials.items) {
      const current = useVault.getState().key;
      if (!current || !userId) {
        toast.error(VaultText.lockedBeforeSave);
        useVault.getState().openPrompt();
        return;
      }
      sealed = await sealCredentials(current, userId, link.id, items);
    }
    try {
      await update.mutateAsync({ id: link.id, body: sealed ? { ...body, credentials: sealed } : body });
      onClose();
    } catch {
      // The mutation's toast already said why; the dialog stays open with the user's edits.
    }
  };

  return (
    <>
      <Dialog
        open
        onOpenChange={(o) => !o && requestClose()}
        onRequestClose={requestClose}
        title="Edit Link"
        wide
        footer={
          // Kept in view under the form while it scrolls (a phone's height), as in the add dialog.
          <div className="flex flex-row-reverse gap-2 sm:justify-start">
            <Button type="submit" form={formId} className="flex-1 sm:flex-none" disabled={!changed || isSubmitting}>
              {isSubmitting ? 'Saving...' : 'Save Changes'}
            </Button>
            <Button variant="secondary" className="flex-1 sm:flex-none" onClick={requestClose}>
              Cancel
            </Button>
          </div>
        }
      >
        <form
          id={formId}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const items = credentials.commitDraft();
            if (items !== null) void handleSubmit((values) => onSubmit(values, items))(e);
          }}
          className="space-y-4"
        >
          <TextField label="URL" value={link.url} readOnly />
          <LinkFields
            register={register}
            errors={errors}
            categories={categories.data ?? []}
            focusTitle
            otherCategory={otherCategory}
          />
          <CredentialFields editor={credentials} storedCount={link.credentials.length} />
        </form>
      </Dialog>
      <DiscardConfirm open={confirmDiscard} onOpenChange={setConfirmDiscard} onDiscard={onClose} />
    </>
  );
}
