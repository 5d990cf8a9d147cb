import { createVault, type VaultKey } from '@linkwise/contract';
import { act, render } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../lib/auth-store';
import { DEFAULT_AUTO_LOCK_MINUTES, useVault, useVaultPrefs } from '../../lib/vault';
import { testUser } from '../../test/fixtures';
import { useIdleLock } from './vault-lifecycle';

let key: VaultKey;
const user = testUser();

function IdleLock({ minutes }: { minutes: number }) {
  useIdleLock(minutes);
  return null;
}

beforeAll(async () => {
  ({ vaultKey: key } = await createVault('purple otter violin'));
});
beforeEach(() => {
  useAuth.setState({ user, token: 't1', isAuthenticated: true });
  useVault.setState({ status: 'unlocked', key, material: null, promptOpen: false });
});
afterEach(() => vi.useRealTimers());

describe('vault lock', () => {
  it('locks after the idle time; any input starts the wait again', async () => {
    vi.useFakeTimers();
    render(<IdleLock minutes={15} />);
    await act(() => vi.advanceTimersByTimeAsync(14 * 60_000));
    expect(useVault.getState().status).toBe('unlocked');
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' })));
    await act(() => vi.advanceTimersByTimeAsync(14 * 60_000));
    expect(useVault.getState().status).toBe('unlocked');
    await act(() => vi.advanceTimersByTimeAsync(60_000 + 5_000));
    expect(useVault.getState()).toMatchObject({ status: 'locked', key: null });
  });

  it('waits 15 minutes by default; the wait is a setting kept without any secret', async () => {
    expect(useVaultPrefs.getState().autoLockMinutes).toBe(DEFAULT_AUTO_LOCK_MINUTES);
    expect(DEFAULT_AUTO_LOCK_MINUTES).toBe(15);
    act(() => useVaultPrefs.getState().setAutoLockMinutes(1));
    expect(JSON.parse(localStorage.getItem('vault-settings') ?? '{}')).toEqual({
      state: { autoLockMinutes: 1 },
      version: 0,
    });
    vi.useFakeTimers();
    render(<IdleLock minutes={useVaultPrefs.getState().autoLockMinutes} />);
    await act(() => vi.advanceTimersByTimeAsync(50_000));
    expect(useVault.getState().status).toBe('unlocked');
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(useVault.getState().status).toBe('locked');
  });

  it('signing out, or another account signing in, forgets the key and the key material', () => {
    useAuth.getState().logout();
    expect(useVault.getState()).toMatchObject({ status: 'unknown', key: null, material: null });

    useAuth.setState({ user, token: 't1', isAuthenticated: true });
    useVault.setState({ status: 'unlocked', key });
    useAuth.getState().login({ ...user, id: 'user-2' }, 't2');
    expect(useVault.getState()).toMatchObject({ status: 'unknown', key: null });
  });

  it('keeps the key out of every browser storage', () => {
    expect(useVault.getState().key).toBe(key);
    const stored = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    expect(stored).not.toMatch(/key|material|wrapped/i);
    expect(sessionStorage.length).toBe(0);
  });
});
