/** How long a copied secret stays on the clipboard before we try to clear it. */
export const CLIPBOARD_CLEAR_MS = 30_000;

let pending: ReturnType<typeof setTimeout> | undefined;

/**
 * Copies a secret and, after `clearAfterMs`, clears the clipboard, but only if it still holds
 * what we copied: something the person copied since then is theirs. Browsers that do not let
 * the page read the clipboard keep the secret there (overwriting blindly could destroy other data).
 * Resolves false when the browser refused the copy.
 */
export async function copySecret(value: string, clearAfterMs = CLIPBOARD_CLEAR_MS): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
  } catch {
    return false;
  }
  clearTimeout(pending);
  pending = setTimeout(() => void clearIfStill(value), clearAfterMs);
  return true;
}

async function clearIfStill(value: string): Promise<void> {
  pending = undefined;
  try {
    if ((await navigator.clipboard.readText()) === value) await navigator.clipboard.writeText('');
  } catch {
    // Reading the clipboard is not allowed here (no permission, or the page is in the background).
  }
}
