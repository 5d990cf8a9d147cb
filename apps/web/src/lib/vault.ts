import {
  ApiError,
  VaultError,
  changeMasterPassword,
  createVault,
  decryptCredential,
  encryptCredential,
  unlockVault,
  type EncryptedCredential,
  type PlainCredential,
  type VaultKey,
  type VaultKeyMaterial,
} from '@linkwise/contract';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { api } from './api';
import { useAuth } from './auth-store';

/** Wording of the vault screens (the spec fixes only the copy toasts). */
export const VaultText = {
  wrongPassword: 'Wrong master password. Please try again.',
  masterTooShort: 'Master password must be at least 10 characters',
  masterTooWeak: 'Choose a stronger master password: add more words or characters.',
  masterRequired: 'Enter your master password',
  acknowledge: 'Please confirm that you understand the master password cannot be recovered',
  sameAsCurrent: 'The new master password must differ from the current one',
  vaultExists: 'This account already has a vault. Unlock it with its master password instead.',
  vaultChanged: 'The vault was changed on another device. Reload and try again.',
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  usernameCopied: 'Username copied to clipboard!',
  passwordCopied: 'Password copied to clipboard!',
  copyFailed: 'Failed to copy to clipboard',
  changed: 'Master password changed',
  created: 'Vault created and unlocked',
  unlocked: 'Vault unlocked',
  locked: 'Vault locked',
  reset: 'Vault reset. All stored credentials were deleted.',
  lockedBeforeSave: 'Your vault is locked. Unlock it to save credentials.',
} as const;

export type VaultStatus = 'unknown' | 'loading' | 'error' | 'absent' | 'locked' | 'unlocked';

interface VaultState {
  status: VaultStatus;
  material: VaultKeyMaterial | null;
  /**
   * The unwrapped vault key: a non-extractable CryptoKey held in memory only. This store is
   * deliberately not persisted (no localStorage, sessionStorage or IndexedDB): a reload locks.
   */
  key: VaultKey | null;
  /** The unlock/set-up dialog is open (any screen may ask for it). */
  promptOpen: boolean;
  load: (force?: boolean) => Promise<void>;
  setup: (masterPassword: string) => Promise<void>;
  /** Throws VaultError('wrong-password') when the password does not unwrap the key. */
  unlock: (masterPassword: string) => Promise<void>;
  lock: () => void;
  changePassword: (current: string, next: string) => Promise<void>;
  reset: () => Promise<void>;
  /** Forget everything (sign-out, another account). */
  clear: () => void;
  openPrompt: () => void;
  closePrompt: () => void;
}

let loading: Promise<void> | null = null;

export const useVault = create<VaultState>()((set, get) => ({
  status: 'unknown',
  material: null,
  key: null,
  promptOpen: false,

  load: (force = false) => {
    const { status } = get();
    if (!force && status !== 'unknown' && status !== 'error') return Promise.resolve();
    loading ??= (async () => {
      if (get().status !== 'unlocked') set({ status: 'loading' });
      try {
        const { data } = await api.getVault();
        set((s) => ({
          material: data,
          status: !data ? 'absent' : s.key && s.material?.wrappedKey === data.wrappedKey ? 'unlocked' : 'locked',
          key: data && s.material?.wrappedKey === data.wrappedKey ? s.key : null,
        }));
      } catch {
        set({ status: 'error' });
      } finally {
        loading = null;
      }
    })();
    return loading;
  },

  setup: async (masterPassword) => {
    // Another tab or device may have created the vault since this one looked: never overwrite it.
    const { data: existing } = await api.getVault();
    if (existing) {
      set({ material: existing, status: get().key ? 'unlocked' : 'locked' });
      throw new Error(VaultText.vaultExists);
    }
    const { material, vaultKey } = await createVault(masterPassword);
    try {
      await api.putVault({ body: { ...material, replaces: null } });
    } catch (error) {
      // Created elsewhere between the check and the write: the server kept that one.
      if (error instanceof ApiError && error.code === 'VAULT_CONFLICT') {
        await get().load(true);
        throw new Error(VaultText.vaultExists);
      }
      throw error;
    }
    set({ material, key: vaultKey, status: 'unlocked' });
  },

  unlock: async (masterPassword) => {
    let material = get().material;
    if (!material) {
      await get().load(true);
      material = get().material;
    }
    if (!material) throw new VaultError('unsupported', 'This account has no vault yet.');
    const key = await unlockVault(masterPassword, material);
    set({ key, status: 'unlocked' });
  },

  lock: () => set((s) => ({ key: null, status: s.status === 'unlocked' ? 'locked' : s.status })),

  changePassword: async (current, next) => {
    // Re-wrap what the server holds now, so a change made elsewhere is not silently undone.
    const { data } = await api.getVault();
    if (!data) throw new VaultError('unsupported', 'This account has no vault yet.');
    const material = await changeMasterPassword(current, next, data);
    try {
      await api.putVault({ body: { ...material, replaces: data.wrappedKey } });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'VAULT_CONFLICT') {
        await get().load(true);
        throw new Error(VaultText.vaultChanged);
      }
      throw error;
    }
    set({ material });
  },

  reset: async () => {
    await api.resetVault();
    set({ material: null, key: null, status: 'absent' });
  },

  clear: () => set({ status: 'unknown', material: null, key: null, promptOpen: false }),
  openPrompt: () => set({ promptOpen: true }),
  closePrompt: () => set({ promptOpen: false }),
}));

// Signing out, or signing in as someone else, locks and forgets the vault.
useAuth.subscribe((state, previous) => {
  if (state.token !== previous.token || state.user?.id !== previous.user?.id) useVault.getState().clear();
});

/** Auto-lock preference; not secret, so it may live in localStorage. */
export const AUTO_LOCK_CHOICES = [1, 5, 15, 30, 60] as const;
export const DEFAULT_AUTO_LOCK_MINUTES = 15;

export const useVaultPrefs = create<{ autoLockMinutes: number; setAutoLockMinutes: (m: number) => void }>()(
  persist(
    (set) => ({
      autoLockMinutes: DEFAULT_AUTO_LOCK_MINUTES,
      setAutoLockMinutes: (autoLockMinutes) => set({ autoLockMinutes }),
    }),
    { name: 'vault-settings' },
  ),
);

/** A credential as the dialogs edit it; `sealed` is the stored ciphertext while it is unchanged. */
export interface EditableCredential extends PlainCredential {
  sealed?: EncryptedCredential;
  /** The stored ciphertext did not open (changed on the server, or moved from another link). */
  unreadable?: boolean;
}

/** Opens a link's credentials with the unlocked key; one that fails to open is marked, not dropped. */
export async function openCredentials(
  key: VaultKey,
  userId: string,
  linkId: string,
  sealed: readonly EncryptedCredential[],
): Promise<EditableCredential[]> {
  return Promise.all(
    sealed.map(async (c) => {
      try {
        return { ...(await decryptCredential(key, { userId, linkId }, c)), sealed: c };
      } catch {
        return { id: c.id, username: '', password: '', note: '', sealed: c, unreadable: true };
      }
    }),
  );
}

/** Encrypts what changed; unchanged credentials keep their stored ciphertext. */
export function sealCredentials(
  key: VaultKey,
  userId: string,
  linkId: string,
  items: readonly EditableCredential[],
): Promise<EncryptedCredential[]> {
  return Promise.all(
    items.map((c) => (c.sealed ? Promise.resolve(c.sealed) : encryptCredential(key, { userId, linkId }, c))),
  );
}

/** A client-generated credential id (the server only checks it is unique within the link). */
export const newCredentialId = (): string => crypto.randomUUID();
