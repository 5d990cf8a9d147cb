import { DEFAULT_SHORTCUT, SAVE_COMMAND } from './env.js';

/** The save shortcut as the browser has it now (the user may have changed it), or '' when unset. */
export async function currentShortcut(): Promise<string> {
  const commands = await chrome.commands.getAll();
  const save = commands.find((c) => c.name === SAVE_COMMAND);
  return save ? (save.shortcut ?? '') : DEFAULT_SHORTCUT;
}

/** The server's welcome page, told which shortcut this browser uses. */
export async function welcomeUrl(server: string): Promise<string> {
  const shortcut = (await currentShortcut()) || DEFAULT_SHORTCUT;
  return `${server}/extension/welcome?${new URLSearchParams({ shortcut }).toString()}`;
}
