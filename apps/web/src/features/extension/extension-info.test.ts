import { describe, expect, it } from 'vitest';
import { bookmarkletCode, installHref } from './extension-info';
import { welcomeShortcut } from './extension-welcome-page';

const info = (stores: Partial<Record<'chrome' | 'edge' | 'firefox', string>>) => ({
  stores: { chrome: stores.chrome ?? null, edge: stores.edge ?? null, firefox: stores.firefox ?? null },
  downloads: { chrome: '/extension/download/linkwise-chrome.zip', firefox: null },
});

describe('extension install buttons', () => {
  it('go to the install page until a store page is configured', () => {
    expect(installHref(undefined, 'chrome')).toBe('/extension/install#chrome');
    expect(installHref(info({}), 'edge')).toBe('/extension/install#chrome');
    expect(installHref(info({}), 'firefox')).toBe('/extension/install#firefox');
  });

  it('go to the configured stores; Edge uses the Chrome store without its own', () => {
    const chrome = 'https://chromewebstore.google.com/detail/linkwise/abc';
    expect(installHref(info({ chrome }), 'chrome')).toBe(chrome);
    expect(installHref(info({ chrome }), 'edge')).toBe(chrome);
    expect(installHref(info({ chrome, edge: 'https://microsoftedge.microsoft.com/addons/x' }), 'edge')).toBe(
      'https://microsoftedge.microsoft.com/addons/x',
    );
  });
});

describe('bookmarklet', () => {
  it('opens the Add Link dialog of this server with the page address and title', () => {
    const code = bookmarkletCode('https://links.example.com');
    expect(code.startsWith('javascript:')).toBe(true);
    const opened: string[] = [];
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the bookmark's code is the test
    const run = new Function('window', 'location', 'document', code.slice('javascript:'.length)) as (
      w: unknown,
      l: unknown,
      d: unknown,
    ) => void;
    run({ open: (url: string) => opened.push(url) }, { href: 'https://news.example/a?b=1&c=2' }, { title: 'A & B' });
    expect(opened).toEqual([
      'https://links.example.com/dashboard?add=https%3A%2F%2Fnews.example%2Fa%3Fb%3D1%26c%3D2&title=A%20%26%20B',
    ]);
  });
});

describe('welcome page shortcut', () => {
  it('shows the shortcut the extension names, Ctrl+Shift+H otherwise', () => {
    expect(welcomeShortcut('Alt+Shift+K')).toBe('Alt+Shift+K');
    expect(welcomeShortcut(null)).toBe('Ctrl+Shift+H');
    expect(welcomeShortcut('<script>')).toBe('Ctrl+Shift+H');
  });
});
