import { createVault, type VaultKeyMaterial } from '@linkwise/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { useVault } from '../../lib/vault';
import { ChangeMasterPasswordForm, SetupVaultForm, UnlockVaultForm } from './master-password-forms';

/** PBKDF2 at 600,000 iterations takes ~0.5 s here and several seconds on a loaded machine. */
const DERIVATION = { timeout: 15_000 };

const MASTER = 'purple otter violin';
let material: VaultKeyMaterial;

beforeAll(async () => {
  ({ material } = await createVault(MASTER));
});
beforeEach(() => useVault.setState({ status: 'unknown', material: null, key: null, promptOpen: false }));
afterEach(() => vi.unstubAllGlobals());

const meter = () => screen.getByRole('meter', { name: 'Master password strength' });

describe('set-up form (first use)', () => {
  it('warns that the master password cannot be recovered and differs from the login password', () => {
    renderWithProviders(<SetupVaultForm />);
    const note = screen.getByRole('note');
    expect(note.textContent).toMatch(/cannot be recovered/);
    expect(note.textContent).toMatch(/different password from your Linkwise login password/);
  });

  it('shows the strength as it is typed', async () => {
    renderWithProviders(<SetupVaultForm />);
    expect(meter().getAttribute('aria-valuetext')).toBe('Empty');
    await userEvent.type(screen.getByLabelText('Master password'), 'aaaaaaaaaa');
    expect(meter().getAttribute('aria-valuetext')).toBe('Very weak');
    expect(screen.getByText('Very weak')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Master password'));
    await userEvent.type(screen.getByLabelText('Master password'), 'correct horse battery staple');
    expect(meter().getAttribute('aria-valuetext')).toBe('Very strong');
    expect(meter().getAttribute('aria-valuenow')).toBe('4');
  });

  it('refuses a mismatched confirmation, a short or weak password, and a missing acknowledgement', async () => {
    renderWithProviders(<SetupVaultForm />);
    const create = screen.getByRole('button', { name: 'Create Vault' });
    await userEvent.type(screen.getByLabelText('Master password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm master password'), 'shorter');
    await userEvent.click(create);
    expect(await screen.findByText('Master password must be at least 10 characters')).toBeTruthy();
    expect(screen.getByText("Passwords don't match")).toBeTruthy();
    expect(screen.getByText('Please confirm that you understand the master password cannot be recovered')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Master password'));
    await userEvent.type(screen.getByLabelText('Master password'), 'password123');
    await userEvent.click(create);
    expect(await screen.findByText(/Choose a stronger master password/)).toBeTruthy();
    // Nothing typed is lost to a failed check.
    expect(screen.getByLabelText<HTMLInputElement>('Confirm master password').value).toBe('shorter');
    expect(useVault.getState().status).toBe('unknown');
  });

  it('creates the vault: key material goes to the server, the password never does', async () => {
    const sent: { method: string; body: string }[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
      const body = typeof init.body === 'string' ? init.body : '';
      sent.push({ method: init.method ?? 'GET', body });
      expect(url).toMatch(/\/api\/vault$/);
      const data = init.method === 'PUT' ? (JSON.parse(body) as VaultKeyMaterial) : null;
      return Promise.resolve(Response.json({ data, updatedAt: data ? new Date().toISOString() : null }));
    });
    let done = 0;
    renderWithProviders(<SetupVaultForm onDone={() => void done++} />);
    await userEvent.type(screen.getByLabelText('Master password'), MASTER);
    await userEvent.type(screen.getByLabelText('Confirm master password'), MASTER);
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create Vault' }));
    await waitFor(() => expect(done).toBe(1), DERIVATION);
    expect(useVault.getState().status).toBe('unlocked');
    expect(sent.map((s) => s.method)).toEqual(['GET', 'PUT']);
    const put = JSON.parse(sent[1]!.body) as VaultKeyMaterial;
    expect(put.kdf).toEqual({ name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000 });
    expect(sent.some((s) => s.body.includes(MASTER))).toBe(false);
    // The unwrapped key is in memory only.
    expect(JSON.stringify({ ...localStorage })).not.toContain('wrappedKey');
    expect(sessionStorage.length).toBe(0);
  });
});

describe('unlock form', () => {
  it('says the master password is wrong and keeps what was typed; the right one unlocks', async () => {
    useVault.setState({ status: 'locked', material });
    renderWithProviders(<UnlockVaultForm />);
    const field = screen.getByLabelText<HTMLInputElement>('Master password');
    await userEvent.type(field, 'purple otter viola');
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Wrong master password. Please try again.', {}, DERIVATION)).toBeTruthy();
    expect(field.value).toBe('purple otter viola');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(useVault.getState().status).toBe('locked');

    await userEvent.clear(field);
    await userEvent.type(field, `${MASTER}{Enter}`);
    await waitFor(() => expect(useVault.getState().status).toBe('unlocked'), DERIVATION);
    expect(useVault.getState().key).not.toBeNull();
    useVault.getState().lock();
    expect(useVault.getState()).toMatchObject({ status: 'locked', key: null });
  });
});

describe('change master password form', () => {
  it('checks the confirmation and that the new password differs, then the current password', async () => {
    useVault.setState({ status: 'locked', material });
    vi.stubGlobal('fetch', () => Promise.resolve(Response.json({ data: material, updatedAt: null })));
    renderWithProviders(<ChangeMasterPasswordForm />);
    await userEvent.type(screen.getByLabelText('Current master password'), MASTER);
    await userEvent.type(screen.getByLabelText('New master password'), MASTER);
    await userEvent.type(screen.getByLabelText('Confirm new master password'), 'something else');
    await userEvent.click(screen.getByRole('button', { name: 'Change Master Password' }));
    expect(await screen.findByText("Passwords don't match")).toBeTruthy();
    expect(screen.getByText('The new master password must differ from the current one')).toBeTruthy();
    expect(screen.getByRole('meter').getAttribute('aria-valuetext')).toBe('Very strong');

    await userEvent.clear(screen.getByLabelText('Current master password'));
    await userEvent.type(screen.getByLabelText('Current master password'), 'not the master password');
    await userEvent.clear(screen.getByLabelText('Confirm new master password'));
    await userEvent.type(screen.getByLabelText('Confirm new master password'), MASTER);
    await userEvent.click(screen.getByRole('button', { name: 'Change Master Password' }));
    expect(await screen.findByText('Wrong master password. Please try again.', {}, DERIVATION)).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('New master password').value).toBe(MASTER);
  });
});
