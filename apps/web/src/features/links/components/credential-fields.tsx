import { KeyRound, Lock, Pencil, Plus, Trash2 } from 'lucide-react';
import { useCallback, useState, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { PasswordField } from '../../../components/vault/password-field';
import { newCredentialId, useVault, VaultText, type EditableCredential } from '../../../lib/vault';

export interface CredentialDraft {
  /** The credential being edited, or null for a new one. */
  id: string | null;
  username: string;
  password: string;
  note: string;
  errors: { username?: string; password?: string };
}

/** Username and password are required after trimming (spec §4, §5); the note is optional. */
export function validateCredential(values: { username: string; password: string }): CredentialDraft['errors'] {
  const errors: CredentialDraft['errors'] = {};
  if (!values.username.trim()) errors.username = VaultText.usernameRequired;
  if (!values.password.trim()) errors.password = VaultText.passwordRequired;
  return errors;
}

const same = (a: EditableCredential, b: EditableCredential) =>
  a.id === b.id && a.username === b.username && a.password === b.password && a.note === b.note;

/** The credential list a dialog edits, its open draft, and whether anything differs from the start. */
export function useCredentialEditor(start?: EditableCredential[]) {
  const [initial, setInitial] = useState<EditableCredential[] | null>(start ?? null);
  const [items, setItems] = useState<EditableCredential[]>(start ?? []);
  const [draft, setDraft] = useState<CredentialDraft | null>(null);

  const load = useCallback((loaded: EditableCredential[]) => {
    setInitial(loaded);
    setItems(loaded);
  }, []);

  /** Saves the open draft into the list; returns the list, or null when the draft is invalid. */
  const commitDraft = (): EditableCredential[] | null => {
    if (!draft) return items;
    const errors = validateCredential(draft);
    if (errors.username || errors.password) {
      setDraft({ ...draft, errors });
      return null;
    }
    const entry: EditableCredential = {
      id: draft.id ?? newCredentialId(),
      username: draft.username.trim(),
      password: draft.password,
      note: draft.note.trim(),
    };
    const next = draft.id ? items.map((c) => (c.id === draft.id ? keepSeal(c, entry) : c)) : [...items, entry];
    setItems(next);
    setDraft(null);
    return next;
  };

  const base = initial ?? [];
  const changed = items.length !== base.length || items.some((c, i) => !base[i] || !same(c, base[i]));
  const hasInput = items.length > 0 || Boolean(draft && (draft.username.trim() || draft.password || draft.note.trim()));
  // An open draft counts as a change only once it differs from what it edits (opening one is not an edit).
  const source = draft?.id ? items.find((c) => c.id === draft.id) : undefined;
  const draftChanged = Boolean(
    draft &&
    (source
      ? draft.username !== source.username || draft.password !== source.password || draft.note !== source.note
      : draft.username.trim() || draft.password || draft.note.trim()),
  );

  return {
    loaded: initial !== null,
    items,
    draft,
    changed: initial !== null && changed,
    draftChanged,
    hasInput,
    load,
    setDraft,
    commitDraft,
    startAdd: () => setDraft({ id: null, username: '', password: '', note: '', errors: {} }),
    startEdit: (c: EditableCredential) =>
      setDraft({ id: c.id, username: c.username, password: c.password, note: c.note, errors: {} }),
    cancelDraft: () => setDraft(null),
    remove: (id: string) => setItems((list) => list.filter((c) => c.id !== id)),
  };
}
export type CredentialEditor = ReturnType<typeof useCredentialEditor>;

/** An edit that changed nothing keeps the stored ciphertext; any change drops it so it is re-encrypted. */
function keepSeal(before: EditableCredential, after: EditableCredential): EditableCredential {
  return same(before, after) && before.sealed ? { ...after, sealed: before.sealed } : after;
}

const row =
  'flex items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-700 dark:bg-slate-800/60';

/**
 * Credentials of a link in the add and edit dialogs. Plaintext exists only while the vault is
 * unlocked; everything leaves this browser encrypted.
 */
export function CredentialFields({ editor, storedCount = 0 }: { editor: CredentialEditor; storedCount?: number }) {
  const status = useVault((s) => s.status);
  const openPrompt = useVault((s) => s.openPrompt);
  const [deleting, setDeleting] = useState<EditableCredential | null>(null);
  const unlocked = status === 'unlocked';
  const { draft, setDraft } = editor;

  const onDraftKey = (event: KeyboardEvent<HTMLDivElement>) => {
    // Enter saves this credential, not the whole link.
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      editor.commitDraft();
    }
  };

  const heading = (
    <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
      <h3 className="flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-200">
        <KeyRound className="size-4" aria-hidden /> Credentials
      </h3>
      <span className="flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
        <Lock className="size-3" aria-hidden /> Encrypted in your browser
      </span>
    </div>
  );

  if (!unlocked) {
    const absent = status === 'absent';
    const count = editor.loaded ? editor.items.length : storedCount;
    return (
      <section
        aria-label="Credentials"
        className="space-y-2 rounded-lg border border-dashed border-slate-300 p-3 dark:border-slate-600"
      >
        {heading}
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {count > 0
            ? `This link has ${count} credential${count === 1 ? '' : 's'}. Unlock your vault to view or edit ${count === 1 ? 'it' : 'them'}.`
            : absent
              ? 'Set a master password to store website credentials with your links.'
              : 'Unlock your vault to add credentials.'}
        </p>
        <Button variant="secondary" size="sm" onClick={openPrompt}>
          <Lock className="size-4" aria-hidden /> {absent ? 'Set Up Vault' : 'Unlock Vault'}
        </Button>
      </section>
    );
  }

  if (!editor.loaded) {
    return (
      <section
        aria-label="Credentials"
        className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
      >
        {heading}
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          Decrypting credentials...
        </p>
      </section>
    );
  }

  return (
    <section
      aria-label="Credentials"
      className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
    >
      {heading}
      {editor.items.length > 0 && (
        <ul className="space-y-2" aria-label="Stored credentials">
          {editor.items.map((c) => (
            <li key={c.id} className={row}>
              <div className="min-w-0 flex-1">
                {c.unreadable ? (
                  <p className="text-sm text-red-600 dark:text-red-400">This credential cannot be decrypted.</p>
                ) : (
                  <>
                    <p className="truncate text-sm font-medium">{c.username}</p>
                    <p className="truncate text-xs text-slate-500 dark:text-slate-400">
                      <span aria-label="Password hidden">••••••••</span>
                      {c.note && ` · ${c.note}`}
                    </p>
                  </>
                )}
              </div>
              {!c.unreadable && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Edit credential ${c.username}`}
                  title="Edit credential"
                  disabled={Boolean(draft)}
                  onClick={() => editor.startEdit(c)}
                >
                  <Pencil className="size-4" aria-hidden />
                </Button>
              )}
              <Button
                variant="ghost"
                size="sm"
                className="hover:text-red-600"
                aria-label={`Delete credential ${c.username || c.id}`}
                title="Delete credential"
                onClick={() => setDeleting(c)}
              >
                <Trash2 className="size-4" aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}

      {draft ? (
        <div
          role="group"
          aria-label={draft.id ? 'Edit credential' : 'New credential'}
          className="space-y-3 rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60"
          onKeyDown={onDraftKey}
        >
          <TextField
            label="Username"
            autoComplete="off"
            autoFocus
            value={draft.username}
            error={draft.errors.username}
            onChange={(e) =>
              setDraft({ ...draft, username: e.target.value, errors: { ...draft.errors, username: undefined } })
            }
          />
          <PasswordField
            label="Password"
            autoComplete="new-password"
            value={draft.password}
            error={draft.errors.password}
            onChange={(e) =>
              setDraft({ ...draft, password: e.target.value, errors: { ...draft.errors, password: undefined } })
            }
          />
          <TextField
            label="Note (optional)"
            autoComplete="off"
            value={draft.note}
            onChange={(e) => setDraft({ ...draft, note: e.target.value })}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" size="sm" onClick={editor.cancelDraft}>
              Cancel
            </Button>
            <Button size="sm" onClick={() => editor.commitDraft()}>
              Save Credential
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" size="sm" onClick={editor.startAdd}>
          <Plus className="size-4" aria-hidden /> Add Credential
        </Button>
      )}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete credential?"
        description={
          deleting?.username
            ? `The credential for ${deleting.username} will be removed when you save this link.`
            : 'This credential will be removed when you save this link.'
        }
        confirmLabel="Delete Credential"
        destructive
        onConfirm={() => {
          if (deleting) editor.remove(deleting.id);
          setDeleting(null);
        }}
      />
    </section>
  );
}
