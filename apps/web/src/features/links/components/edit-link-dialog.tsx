import { zodResolver } from '@hookform/resolvers/zod';
import { Messages, parseTags, type Link } from '@linkwise/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { useCategories, useUpdateLink } from '../api';
import { DiscardConfirm } from './add-link-dialog';
import { LinkFields } from './link-fields';

export const EditLinkFormSchema = z.object({
  title: z.string().trim().min(1, { error: Messages.titleRequired }),
  description: z.string(),
  category: z.string(),
  tags: z.string(),
  notes: z.string(),
});
type EditLinkForm = z.infer<typeof EditLinkFormSchema>;

export function EditLinkDialog({ link, onClose }: { link: Link | null; onClose: () => void }) {
  return link ? <EditLinkDialogBody key={link.id} link={link} onClose={onClose} /> : null;
}

function EditLinkDialogBody({ link, onClose }: { link: Link; onClose: () => void }) {
  const categories = useCategories();
  const update = useUpdateLink();
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const {
    register,
    handleSubmit,
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

  const requestClose = () => (isDirty ? setConfirmDiscard(true) : onClose());

  const onSubmit = async (values: EditLinkForm) => {
    try {
      await update.mutateAsync({
        id: link.id,
        body: { ...values, tags: parseTags(values.tags) },
      });
      onClose();
    } catch {
      // The mutation's toast already said why; the dialog stays open with the user's edits.
    }
  };

  return (
    <>
      <Dialog open onOpenChange={(o) => !o && requestClose()} onRequestClose={requestClose} title="Edit Link" wide>
        <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-4">
          <TextField label="URL" value={link.url} readOnly />
          <LinkFields register={register} errors={errors} categories={categories.data ?? []} />
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={requestClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!isDirty || isSubmitting}>
              {isSubmitting ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </Dialog>
      <DiscardConfirm open={confirmDiscard} onOpenChange={setConfirmDiscard} onDiscard={onClose} />
    </>
  );
}
