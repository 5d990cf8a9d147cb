import { createVault, decryptCredential, encryptCredential, type Link, type VaultKey } from '@linkwise/contract';
import type { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../../lib/auth-store';
import { useVault } from '../../../lib/vault';
import { testLink, testUser } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { AddLinkDialog } from './add-link-dialog';
import { validateCredential } from './credential-fields';
import { EditLinkDialog } from './edit-link-dialog';
import { LinkCard } from './link-card';

const user = testUser();
const place = { userId: user.id, linkId: 'l1' };
const base: Link = testLink({ url: 'https://bank.example/login', title: 'Bank' });
let key: VaultKey;
let stored: Link;

const seed = (client: QueryClient) => client.setQueryData(['links', 'categories'], []);

beforeAll(async () => {
  ({ vaultKey: key } = await createVault('purple otter violin'));
  stored = {
    ...base,
    credentials: [
      await encryptCredential(key, place, { id: 'c1', username: 'first@bank', password: 'pw-one', note: 'main' }),
      await encryptCredential(key, place, { id: 'c2', username: 'second@bank', password: 'pw-two', note: '' }),
    ],
  };
});
beforeEach(() => {
  useAuth.setState({ user, token: 't', isAuthenticated: true });
  useVault.setState({ status: 'unlocked', material: null, key, promptOpen: false });
});
afterEach(() => vi.unstubAllGlobals());

describe('credential validation', () => {
  it('needs a username and a password after trimming; the note is optional', () => {
    expect(validateCredential({ username: '  ', password: ' \t' })).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
    expect(validateCredential({ username: ' ada ', password: ' x ' })).toEqual({});
  });
});

describe('credentials in the add-link dialog', () => {
  it('adds, validates, edits and deletes (with confirmation) without submitting the link', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      calls.push(url);
      return Promise.resolve(Response.json({}));
    });
    renderWithProviders(<AddLinkDialog open onClose={() => undefined} onLimitReached={() => undefined} />, seed);
    const section = screen.getByRole('region', { name: 'Credentials' });
    await userEvent.click(within(section).getByRole('button', { name: 'Add Credential' }));
    const draft = within(section).getByRole('group', { name: 'New credential' });
    expect(document.activeElement).toBe(within(draft).getByLabelText('Username'));
    await userEvent.type(within(draft).getByLabelText('Username'), '   ');
    await userEvent.type(within(draft).getByLabelText('Password'), '  {Enter}');
    expect(within(draft).getByText('Username is required')).toBeTruthy();
    expect(within(draft).getByText('Password is required')).toBeTruthy();
    // What was typed stays; Enter did not submit the link form.
    expect(within(draft).getByLabelText<HTMLInputElement>('Password').value).toBe('  ');
    expect(calls).toEqual([]);

    await userEvent.type(within(draft).getByLabelText('Username'), 'ada@bank');
    await userEvent.type(within(draft).getByLabelText('Password'), 's3cret');
    await userEvent.type(within(draft).getByLabelText('Note (optional)'), 'personal');
    await userEvent.click(within(draft).getByRole('button', { name: 'Save Credential' }));
    const list = within(section).getByRole('list', { name: 'Stored credentials' });
    expect(within(list).getByText('ada@bank')).toBeTruthy();
    expect(list.textContent).not.toContain('s3cret');

    await userEvent.click(within(list).getByRole('button', { name: 'Edit credential ada@bank' }));
    const editing = within(section).getByRole('group', { name: 'Edit credential' });
    expect(within(editing).getByLabelText<HTMLInputElement>('Password').value).toBe('  s3cret');
    await userEvent.clear(within(editing).getByLabelText('Username'));
    await userEvent.type(within(editing).getByLabelText('Username'), 'ada@work{Enter}');
    expect(within(list).getByText('ada@work')).toBeTruthy();

    await userEvent.click(within(list).getByRole('button', { name: 'Delete credential ada@work' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete credential?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(within(list).getByText('ada@work')).toBeTruthy();
    await userEvent.click(within(list).getByRole('button', { name: 'Delete credential ada@work' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Credential' }));
    await waitFor(() => expect(within(section).queryByRole('list')).toBeNull());
    expect(calls).toEqual([]);
  });

  it('asks to set up or unlock the vault before credentials can be added', async () => {
    useVault.setState({ status: 'locked', key: null });
    renderWithProviders(<AddLinkDialog open onClose={() => undefined} onLimitReached={() => undefined} />, seed);
    const section = screen.getByRole('region', { name: 'Credentials' });
    expect(within(section).queryByRole('button', { name: 'Add Credential' })).toBeNull();
    await userEvent.click(within(section).getByRole('button', { name: 'Unlock Vault' }));
    expect(useVault.getState().promptOpen).toBe(true);
  });
});

describe('credentials in the edit-link dialog', () => {
  it('decrypts the stored credentials, enables Save on a deletion and sends only ciphertext', async () => {
    let sent: unknown;
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      sent = JSON.parse(init.body as string);
      return Promise.resolve(Response.json({ ...stored, credentials: [] }));
    });
    let closed = 0;
    renderWithProviders(<EditLinkDialog link={stored} onClose={() => void closed++} />, seed);
    const list = await screen.findByRole('list', { name: 'Stored credentials' });
    expect(within(list).getByText('first@bank')).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toHaveProperty('disabled', true);
    await userEvent.click(within(list).getByRole('button', { name: 'Delete credential first@bank' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Credential' }));
    await waitFor(() => expect(save).toHaveProperty('disabled', false));
    await userEvent.click(save);
    await waitFor(() => expect(closed).toBe(1));
    const body = sent as { credentials: { id: string; ciphertext: string }[] };
    expect(body.credentials).toEqual([stored.credentials[1]]);
    expect(JSON.stringify(body)).not.toMatch(/second@bank|pw-two|first@bank/);
  });

  it('re-encrypts an edited credential for this link', async () => {
    let sent: { credentials: Link['credentials'] } | undefined;
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      sent = JSON.parse(init.body as string) as typeof sent;
      return Promise.resolve(Response.json(stored));
    });
    renderWithProviders(<EditLinkDialog link={stored} onClose={() => undefined} />, seed);
    const list = await screen.findByRole('list', { name: 'Stored credentials' });
    await userEvent.click(within(list).getByRole('button', { name: 'Edit credential second@bank' }));
    // Opening a credential to look at it changes nothing: Save stays off until a field differs.
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toHaveProperty('disabled', true);
    await userEvent.type(screen.getByLabelText('Password'), '-changed');
    expect(save).toHaveProperty('disabled', false);
    await userEvent.click(save);
    await waitFor(() => expect(sent).toBeDefined());
    const [first, second] = sent!.credentials;
    expect(first).toEqual(stored.credentials[0]);
    expect(second?.ciphertext).not.toBe(stored.credentials[1]?.ciphertext);
    expect(await decryptCredential(key, place, second!)).toEqual({
      id: 'c2',
      username: 'second@bank',
      password: 'pw-two-changed',
      note: '',
    });
  });

  it('keeps credentials it cannot see: locked, other fields save without touching them', async () => {
    useVault.setState({ status: 'locked', key: null });
    let sent: Record<string, unknown> | undefined;
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      sent = JSON.parse(init.body as string) as Record<string, unknown>;
      return Promise.resolve(Response.json(stored));
    });
    renderWithProviders(<EditLinkDialog link={stored} onClose={() => undefined} />, seed);
    expect(screen.getByText(/This link has 2 credentials\. Unlock your vault/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Title'), ' account');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).not.toHaveProperty('credentials');
    expect(sent?.title).toBe('Bank account');
  });
});

describe('credentials on the card', () => {
  it('locked: says how many exist and offers to unlock; unlocked: lists them with copy buttons', async () => {
    useVault.setState({ status: 'locked', key: null });
    renderWithProviders(<LinkCard link={stored} onEdit={() => undefined} />);
    expect(screen.getByText('2 saved credentials')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Unlock to view' }));
    expect(useVault.getState().promptOpen).toBe(true);

    act(() => useVault.setState({ status: 'unlocked', key, promptOpen: false }));
    const list = await screen.findByRole('list', { name: 'Credentials' });
    const first = within(list).getByRole('listitem', { name: 'first@bank' });
    expect(within(first).getByRole('button', { name: 'Copy username' })).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Copy password' })).toBeTruthy();
    expect(list.textContent).not.toContain('pw-one');

    act(() => useVault.getState().lock());
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Credentials' })).toBeNull());
    expect(screen.getByText('2 saved credentials')).toBeTruthy();
  });
});
