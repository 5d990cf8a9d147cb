import { describe, expect, it } from 'vitest';
import { commandFor, isTyping, SHORTCUTS } from './shortcuts';

const press = (key: string, target: EventTarget | null = document.body, mods: Partial<KeyboardEvent> = {}) =>
  commandFor({ key, ctrlKey: false, altKey: false, metaKey: false, target, ...mods }, false);

const element = (html: string) => {
  const host = document.createElement('div');
  host.innerHTML = html;
  document.body.append(host);
  return host.firstElementChild as HTMLElement;
};

describe('dashboard shortcuts', () => {
  it('maps each key to its command from the page', () => {
    expect(['/', 'n', '?', 'j', 'k', 'e', 'x', 'Escape'].map((k) => press(k))).toEqual([
      'search',
      'add',
      'help',
      'next',
      'previous',
      'edit',
      'select',
      'clear',
    ]);
    expect(press('ArrowDown')).toBe('next');
    expect(press('ArrowLeft')).toBe('previous');
    expect(press('q')).toBeNull();
  });

  it('never fires while typing, with a modifier held, or while a dialog is open', () => {
    for (const html of [
      '<input type="text">',
      '<input type="search">',
      '<textarea></textarea>',
      '<select></select>',
      '<div contenteditable="true"></div>',
    ]) {
      const field = element(html);
      if (html.includes('contenteditable')) Object.defineProperty(field, 'isContentEditable', { value: true });
      expect(isTyping(field), html).toBe(true);
      expect(press('n', field), html).toBeNull();
    }
    expect(isTyping(element('<input type="checkbox">'))).toBe(false);
    expect(press('n', document.body, { ctrlKey: true })).toBeNull();
    expect(press('k', document.body, { metaKey: true })).toBeNull();
    expect(
      commandFor({ key: 'n', ctrlKey: false, altKey: false, metaKey: false, target: document.body }, true),
    ).toBeNull();
  });

  it('opens with Enter only on a card, and leaves arrow keys to buttons and selects', () => {
    const card = element('<article data-card-index="0" tabindex="-1"></article>');
    const button = element('<button>Edit</button>');
    expect(press('Enter', card)).toBe('open');
    expect(press('Enter', button)).toBeNull();
    expect(press('Enter')).toBeNull();
    expect(press('ArrowDown', card)).toBe('next');
    expect(press('ArrowDown', button)).toBeNull();
    expect(press('j', button)).toBe('next');
  });

  it('lists every command in the help dialog', () => {
    expect(SHORTCUTS.map((s) => s.action)).toHaveLength(10);
    expect(SHORTCUTS.flatMap((s) => s.keys)).toEqual(
      expect.arrayContaining(['/', 'n', '?', 'j', 'k', 'Enter', 'e', 'x', 'Alt+T']),
    );
  });
});
