import { act, render, screen, waitFor } from '@testing-library/react';
import { Toaster } from 'sonner';
import { describe, expect, it } from 'vitest';
import { toast } from './toast';

const shown = (text: string) => screen.queryAllByText(text).length;

describe('toasts', () => {
  it('say the same error once however often it happens, and retire errors when something succeeds', async () => {
    render(<Toaster />);
    act(() => {
      toast.error('This email is already registered');
      toast.error('This email is already registered');
      toast.error('This email is already registered');
      toast.error('Please enter a URL first');
    });
    await waitFor(() => expect(shown('Please enter a URL first')).toBe(1));
    expect(shown('This email is already registered')).toBe(1);

    act(() => void toast.success('Welcome to Linkwise!'));
    await waitFor(() => expect(shown('Welcome to Linkwise!')).toBe(1));
    await waitFor(() => expect(shown('This email is already registered') + shown('Please enter a URL first')).toBe(0));

    // An error after the success is shown as usual.
    act(() => void toast.error('Failed to add link'));
    await waitFor(() => expect(shown('Failed to add link')).toBe(1));
  });
});
