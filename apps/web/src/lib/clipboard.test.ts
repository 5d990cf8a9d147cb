import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIPBOARD_CLEAR_MS, copySecret } from './clipboard';

/** A clipboard the test controls: what the page wrote, and whether reading is allowed. */
function fakeClipboard({ readable = true, writable = true } = {}) {
  const state = { text: 'before', writes: [] as string[] };
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: (text: string) => {
        if (!writable) return Promise.reject(new DOMException('denied', 'NotAllowedError'));
        state.text = text;
        state.writes.push(text);
        return Promise.resolve();
      },
      readText: () =>
        readable ? Promise.resolve(state.text) : Promise.reject(new DOMException('denied', 'NotAllowedError')),
    },
  });
  return state;
}

describe('copying secrets', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('clears the clipboard after 30 seconds when it still holds the secret', async () => {
    const clip = fakeClipboard();
    expect(await copySecret('hunter2')).toBe(true);
    expect(clip.text).toBe('hunter2');
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS - 1);
    expect(clip.text).toBe('hunter2');
    await vi.advanceTimersByTimeAsync(1);
    expect(clip.text).toBe('');
    expect(CLIPBOARD_CLEAR_MS).toBe(30_000);
  });

  it('leaves the clipboard alone when the person copied something else since', async () => {
    const clip = fakeClipboard();
    await copySecret('hunter2');
    clip.text = 'their own text';
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS);
    expect(clip.text).toBe('their own text');
  });

  it('does not clear blindly when the browser does not let the page read the clipboard', async () => {
    const clip = fakeClipboard({ readable: false });
    await copySecret('hunter2');
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS);
    expect(clip.text).toBe('hunter2');
    expect(clip.writes).toEqual(['hunter2']);
  });

  it('restarts the wait on a second copy, so only the newest secret is cleared', async () => {
    const clip = fakeClipboard();
    await copySecret('first');
    await vi.advanceTimersByTimeAsync(20_000);
    await copySecret('second');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(clip.text).toBe('second');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(clip.text).toBe('');
  });

  it('reports a refused copy', async () => {
    fakeClipboard({ writable: false });
    expect(await copySecret('hunter2')).toBe(false);
  });
});
