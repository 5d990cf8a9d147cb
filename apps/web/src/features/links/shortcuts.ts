/** The dashboard's keyboard shortcuts, as the `?` dialog lists them. */
export const SHORTCUTS: readonly { keys: string[]; action: string }[] = [
  { keys: ['/'], action: 'Search' },
  { keys: ['n'], action: 'Add a link' },
  { keys: ['j', '↓', '→'], action: 'Next link' },
  { keys: ['k', '↑', '←'], action: 'Previous link' },
  { keys: ['Enter'], action: 'Open the link' },
  { keys: ['e'], action: 'Edit the link' },
  { keys: ['x'], action: 'Select or unselect the link' },
  { keys: ['Esc'], action: 'Clear the selection' },
  { keys: ['?'], action: 'Show these shortcuts' },
  // The notifications' own key (sonner's hotkey): how a keyboard reaches a toast's Undo.
  { keys: ['Alt+T'], action: 'Go to the notifications (Undo a delete)' },
];

export type ShortcutCommand = 'search' | 'add' | 'next' | 'previous' | 'open' | 'edit' | 'select' | 'clear' | 'help';

const KEY_COMMANDS: Record<string, ShortcutCommand> = {
  '/': 'search',
  n: 'add',
  j: 'next',
  ArrowDown: 'next',
  ArrowRight: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  ArrowLeft: 'previous',
  Enter: 'open',
  e: 'edit',
  x: 'select',
  Escape: 'clear',
  '?': 'help',
};

/** True while the user types somewhere: shortcuts then stay out of the way. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

/**
 * The command a key press means, or null: never while typing, with Ctrl/Alt/Meta held, or while a
 * dialog is open; Enter only on a card itself (on a button or link it does what that one does).
 */
export function commandFor(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey' | 'target'>,
  dialogOpen: boolean,
): ShortcutCommand | null {
  if (event.ctrlKey || event.altKey || event.metaKey || dialogOpen || isTyping(event.target)) return null;
  const command = KEY_COMMANDS[event.key] ?? null;
  const target = event.target instanceof HTMLElement ? event.target : null;
  const onCard = Boolean(target?.hasAttribute('data-card-index'));
  if (command === 'open' && !onCard) return null;
  // Arrow keys scroll the page, and move within a select or a menu: only from a card or the page itself.
  if (event.key.startsWith('Arrow') && !onCard && target !== null && target !== document.body) return null;
  return command;
}
