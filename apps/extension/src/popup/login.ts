import type { Link } from '@linkwise/contract';
import type { FillResult } from '../lib/fill-login.js';
import { VAULT_UNREACHABLE, type LoginChoice } from '../lib/vault-session.js';
import type { Connection } from '../lib/state.js';

type FillAnswer = FillResult | 'locked' | 'unreachable' | 'gone';

const FILL_MESSAGES: Record<FillAnswer, { text: string; tone: string }> = {
  unreachable: { text: VAULT_UNREACHABLE, tone: 'error' },
  gone: {
    text: 'This login is no longer in Linkwise: nothing was filled. Reopen this popup for the logins left.',
    tone: 'error',
  },
  filled: { text: 'Filled in. Check the page, then sign in.', tone: 'ok' },
  'origin-mismatch': { text: 'This login belongs to another site: nothing was filled.', tone: 'error' },
  'no-password-field': { text: 'This page has no password field to fill.', tone: 'error' },
  'no-access': {
    text: 'Open Linkwise from the toolbar on the sign-in page itself to fill it.',
    tone: 'error',
  },
  locked: { text: 'The vault locked itself. Unlock it again.', tone: 'warn' },
};

type Logins = { count: number; locked: boolean; choices: LoginChoice[] };

/**
 * One-click login: the logins saved on links of this page's origin, after the vault is unlocked with
 * the master password. The background holds the key and the passwords; this page sees user names.
 */
export function mountLogin(
  _connection: Connection,
  page: { url: string; tabId: number | undefined },
  _link: Link | null,
): void {
  const panel = document.getElementById('login-panel') as HTMLElement;
  const unlockForm = document.getElementById('unlock-form') as HTMLFormElement;
  const master = document.getElementById('master') as HTMLInputElement;
  const list = document.getElementById('credentials') as HTMLUListElement;
  const status = document.getElementById('login-status') as HTMLParagraphElement;
  const say = (text: string, tone = 'muted') => {
    status.textContent = text;
    status.className = tone;
  };

  const render = (logins: Logins) => {
    panel.hidden = logins.count === 0;
    unlockForm.hidden = !logins.locked;
    if (logins.locked) {
      say(
        logins.count === 1
          ? '1 saved login for this site. Unlock your vault to use it.'
          : `${logins.count} saved logins for this site. Unlock your vault to use them.`,
      );
      list.replaceChildren();
      return;
    }
    say('');
    list.replaceChildren(
      ...logins.choices.map((choice) => {
        const li = document.createElement('li');
        li.className = 'row';
        const name = document.createElement('span');
        name.textContent = choice.username || '(no user name)';
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Fill';
        button.setAttribute('aria-label', `Fill login ${choice.username}`);
        button.addEventListener('click', () => {
          if (page.tabId === undefined) return;
          void chrome.runtime
            .sendMessage<unknown, FillAnswer | undefined>({
              type: 'fill',
              tabId: page.tabId,
              linkId: choice.linkId,
              credentialId: choice.credentialId,
            })
            .then((result) => {
              const message = FILL_MESSAGES[result ?? 'unreachable'];
              say(message.text, message.tone);
              if (result === 'filled') setTimeout(() => window.close(), 1200);
            });
        });
        li.append(name, button);
        return li;
      }),
    );
  };

  const load = () =>
    chrome.runtime.sendMessage<unknown, Logins | undefined>({ type: 'logins', url: page.url }).then((logins) => {
      if (logins) render(logins);
    });

  unlockForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const password = master.value;
    if (!password) return;
    say('Unlocking…');
    void chrome.runtime
      .sendMessage<unknown, { ok: boolean; error?: string } | undefined>({ type: 'vault-unlock', password })
      .then((answer) => {
        master.value = '';
        // The unlock form goes away with the keyboard's focus in it: the first login's Fill takes it.
        if (answer?.ok) void load().then(() => list.querySelector('button')?.focus());
        else say(answer ? (answer.error ?? 'Wrong master password.') : VAULT_UNREACHABLE, 'error');
        // The form stays: the keyboard goes back to the password field for another try.
        if (!answer?.ok) master.focus();
      });
  });
  void load();
}
