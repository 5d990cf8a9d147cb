import { ApiError, parseTags, type ApiClient, type Link, type SubscriptionStatusResponse } from '@linkwise/contract';
import { clientFor, isUnauthorized } from '../lib/api.js';
import { BROWSER, DEFAULT_SHORTCUT } from '../lib/env.js';
import type { SaveOutcome } from '../lib/save.js';
import { getConnection, type Connection } from '../lib/state.js';
import { currentShortcut } from '../lib/welcome.js';
import { mountLogin } from './login.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLParagraphElement>('status');
const form = $<HTMLFormElement>('link-form');
const submit = $<HTMLButtonElement>('submit');
const fields = {
  title: $<HTMLInputElement>('title'),
  description: $<HTMLTextAreaElement>('description'),
  category: $<HTMLInputElement>('category'),
  tags: $<HTMLInputElement>('tags'),
  notes: $<HTMLTextAreaElement>('notes'),
  readLater: $<HTMLInputElement>('read-later'),
};

const otherCategory = $('other-category');
const otherCategoryPick = $<HTMLButtonElement>('other-category-pick');

/**
 * The analysis's second category under the field while the field holds something else: one click
 * puts it there and offers the one it replaced back (an input event, so the form sees the change).
 */
function offerOtherCategory(name: string | undefined): void {
  let offered = name?.trim() ?? '';
  const update = () => {
    otherCategory.hidden = !offered || offered === fields.category.value.trim();
    otherCategoryPick.textContent = offered;
    otherCategoryPick.setAttribute('aria-label', `Use ${offered} instead`);
  };
  otherCategoryPick.onclick = () => {
    const replaced = fields.category.value.trim();
    fields.category.value = offered;
    offered = replaced;
    fields.category.dispatchEvent(new Event('input', { bubbles: true }));
  };
  fields.category.oninput = update;
  update();
}

interface TargetPage {
  tabId: number | undefined;
  url: string;
  title: string;
  favicon: string | undefined;
}

/**
 * The page the popup is about: the active tab. An extension page opened in a tab (how the browser
 * suites drive the popup) names its target tab and page in the query, since it is the active tab itself.
 */
async function targetPage(): Promise<TargetPage> {
  const params = new URLSearchParams(location.search);
  const named = params.get('tab');
  if (named) {
    return {
      tabId: Number(named),
      url: params.get('url') ?? '',
      title: params.get('title') ?? '',
      favicon: undefined,
    };
  }
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return { tabId: tab?.id, url: tab?.url ?? '', title: tab?.title ?? '', favicon: tab?.favIconUrl };
}

const isWebPage = (url: string) => /^https?:\/\//i.test(url);

function say(text: string, tone: 'muted' | 'ok' | 'error' | 'warn' = 'muted'): void {
  status.textContent = text;
  status.className = tone;
}

function show(view: 'connect' | 'reconnect' | 'form' | 'none'): void {
  $('view-connect').hidden = view !== 'connect';
  $('view-reconnect').hidden = view !== 'reconnect';
  form.hidden = view !== 'form';
  $('search-panel').hidden = view === 'connect' || view === 'reconnect';
}

function renderHeader(page: TargetPage): void {
  $('page-title').textContent = page.title || page.url || 'This tab';
  $('page-host').textContent = isWebPage(page.url) ? new URL(page.url).hostname : '';
  // Only web favicons: an extension page must not load arbitrary schemes.
  if (page.favicon && /^(https?:|data:image\/)/.test(page.favicon)) $<HTMLImageElement>('favicon').src = page.favicon;
}

function renderUsage(connection: Connection, usage: SubscriptionStatusResponse): void {
  const panel = $('usage');
  if (usage.linkLimit === null) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const used = Math.min(usage.totalLinks, usage.linkLimit);
  $('usage-text').textContent = `${usage.totalLinks} of ${usage.linkLimit} links used on the Free plan`;
  $('usage-bar').style.width = `${Math.round((used / Math.max(1, usage.linkLimit)) * 100)}%`;
  const full = !usage.canAddLinks;
  panel.classList.toggle('full', full);
  $('limit-text').hidden = !full;
  $('limit-text').textContent = `You've reached your limit of ${usage.linkLimit} links`;
  const upgrade = $<HTMLButtonElement>('upgrade');
  upgrade.hidden = !full;
  upgrade.onclick = () => void chrome.tabs.create({ url: `${connection.server}/pricing` });
}

/** Editing a saved link in place: what the popup shows when the page is already in the library. */
function showSaved(api: ApiClient, connection: Connection, link: Link, justSaved = false): void {
  show('form');
  $('saved-note').hidden = false;
  // Just saved, the status line says so already.
  $('saved-text').hidden = justSaved;
  $('new-fields').hidden = false;
  fields.title.value = link.title;
  fields.description.value = link.description ?? '';
  $('suggest-status').textContent = '';
  // The library searched for the page's address: the link itself, wherever it sorts.
  $<HTMLAnchorElement>('open-link').href = `${connection.server}/dashboard?q=${encodeURIComponent(link.url)}`;
  fields.category.value = link.category ?? '';
  offerOtherCategory(link.otherCategory);
  fields.tags.value = link.tags.join(', ');
  fields.notes.value = link.notes ?? '';
  fields.readLater.checked = link.isReadLater;
  submit.textContent = 'Save changes';
  submit.disabled = true;
  const snapshot = () =>
    JSON.stringify([
      fields.title.value.trim(),
      fields.description.value.trim(),
      fields.category.value.trim(),
      parseTags(fields.tags.value),
      fields.notes.value,
      fields.readLater.checked,
    ]);
  let saved = snapshot();
  form.oninput = () => {
    submit.disabled = snapshot() === saved;
  };
  form.onsubmit = (event) => {
    event.preventDefault();
    submit.disabled = true;
    $('form-error').textContent = '';
    void api
      .updateLink({
        params: { id: link.id },
        body: {
          // A title left empty keeps the saved one (a link always has a title).
          ...(fields.title.value.trim() && { title: fields.title.value.trim() }),
          description: fields.description.value.trim(),
          category: fields.category.value.trim() || null,
          tags: parseTags(fields.tags.value),
          notes: fields.notes.value || null,
          isReadLater: fields.readLater.checked,
        },
      })
      .then(
        () => {
          saved = snapshot();
          say('Changes saved', 'ok');
        },
        (error: unknown) => {
          if (isUnauthorized(error)) return showReconnect(connection);
          $('form-error').textContent = error instanceof Error ? error.message : 'Failed to update link';
          submit.disabled = false;
        },
      );
  };
}

/** Saving a new page: the analysis fills what the user has not typed yet, as soon as it answers. */
function showNew(api: ApiClient, connection: Connection, page: TargetPage, canAdd: boolean): void {
  show('form');
  $('saved-note').hidden = true;
  $('new-fields').hidden = false;
  fields.title.value = page.title;
  submit.textContent = 'Save';
  submit.disabled = !canAdd;
  const touched = new Set<string>();
  form.oninput = (event) => touched.add((event.target as HTMLElement).id);
  offerOtherCategory(undefined);
  const suggest = $('suggest-status');
  suggest.textContent = 'Analysing the page for suggestions…';
  void api.analyzeLink({ body: { url: page.url } }).then(
    ({ data }) => {
      const fill = (input: HTMLInputElement | HTMLTextAreaElement, value: string) => {
        if (!touched.has(input.id) && value && !input.value.trim()) input.value = value;
      };
      if (!touched.has('title') && data.title) fields.title.value = data.title;
      fill(fields.description, data.description);
      fill(fields.category, data.category);
      // Offered only beside the analysis's own category, not beside one the user typed.
      if (fields.category.value === data.category) offerOtherCategory(data.otherCategory);
      fill(fields.tags, data.tags.join(', '));
      if (!touched.has('read-later')) fields.readLater.checked = data.isReadLater;
      suggest.textContent = 'Suggestions added: change anything before saving.';
    },
    (error: unknown) => {
      suggest.textContent = isUnauthorized(error) ? '' : 'No suggestions for this page.';
    },
  );
  form.onsubmit = (event) => {
    event.preventDefault();
    submit.disabled = true;
    say('Saving…');
    const body = {
      url: page.url,
      title: fields.title.value.trim() || undefined,
      description: fields.description.value.trim() || undefined,
      category: fields.category.value.trim() || undefined,
      tags: parseTags(fields.tags.value),
      notes: fields.notes.value || undefined,
      isReadLater: fields.readLater.checked,
    };
    void chrome.runtime
      .sendMessage<unknown, SaveOutcome>({ type: 'save', tabId: page.tabId, body })
      .then(async (outcome) => {
        if (outcome.kind === 'saved') {
          say('Saved to Linkwise', 'ok');
          showSaved(api, connection, outcome.link, true);
          void api.subscriptionStatus().then((u) => renderUsage(connection, u));
        } else if (outcome.kind === 'already') {
          say('Already saved in Linkwise', 'ok');
          const { data } = await api.lookupLink({ query: { url: page.url } });
          if (data) showSaved(api, connection, data, true);
        } else if (outcome.kind === 'queued') {
          say('Saved offline: it reaches Linkwise when the server is back.', 'warn');
        } else if (outcome.reason === 'reconnect') {
          showReconnect(connection);
        } else {
          say(outcome.message, 'error');
          submit.disabled = outcome.reason === 'limit';
          if (outcome.reason === 'limit') await api.subscriptionStatus().then((u) => renderUsage(connection, u));
        }
        keepFocus();
      });
  };
}

/**
 * The Save button the keyboard was on is disabled or gone once a save answered: the focus moves to
 * what comes next (the saved link, Upgrade at the limit, else the status line) instead of the page.
 */
function keepFocus(): void {
  const active = document.activeElement;
  if (active && active !== document.body && (active !== submit || !submit.disabled)) return;
  const next = [$('open-link'), $('upgrade'), submit].find(
    (el) => el.offsetParent !== null && !('disabled' in el && el.disabled),
  );
  (next ?? $('status')).focus();
}

function showReconnect(connection: Connection): void {
  say('');
  show('reconnect');
  $('usage').hidden = true;
  $('login-panel').hidden = true;
  $<HTMLButtonElement>('reconnect').onclick = () => {
    const params = new URLSearchParams({ ext: chrome.runtime.id, browser: BROWSER });
    void chrome.tabs
      .create({ url: `${connection.server}/extension/auth?${params.toString()}` })
      .then(() => window.close());
  };
  $<HTMLButtonElement>('reconnect').focus();
}

function mountSearch(api: ApiClient, connection: Connection): void {
  const input = $<HTMLInputElement>('search');
  const results = $<HTMLUListElement>('results');
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < 2) {
      controller?.abort();
      results.replaceChildren();
      return;
    }
    // The spec's search debounce, so each keystroke does not query the server.
    timer = setTimeout(() => {
      controller?.abort();
      controller = new AbortController();
      void api.search({ query: { query, limit: 5 } }, { signal: controller.signal }).then(
        ({ data }) => {
          const items = data.map((link) => {
            const li = document.createElement('li');
            const a = document.createElement('a');
            a.href = link.url;
            a.target = '_blank';
            a.rel = 'noreferrer';
            a.textContent = link.title;
            a.title = link.url;
            li.append(a);
            return li;
          });
          if (!items.length) {
            const li = document.createElement('li');
            li.className = 'muted';
            li.textContent = 'No links found.';
            items.push(li);
          }
          results.replaceChildren(...items);
        },
        (error: unknown) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          if (isUnauthorized(error)) return showReconnect(connection);
          const li = document.createElement('li');
          li.className = 'error';
          li.textContent = 'Search failed. Please try again.';
          results.replaceChildren(li);
        },
      );
    }, 500);
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  $('settings').addEventListener('click', (event) => {
    event.preventDefault();
    void chrome.runtime.openOptionsPage();
  });
  void currentShortcut().then((s) => ($('shortcut').textContent = s || DEFAULT_SHORTCUT));
  const [connection, page] = await Promise.all([getConnection(), targetPage()]);
  renderHeader(page);
  if (!connection.token) {
    say('');
    show('connect');
    $<HTMLButtonElement>('connect').onclick = () => void chrome.runtime.openOptionsPage().then(() => window.close());
    return ready(started);
  }
  if (connection.needsReconnect) {
    showReconnect(connection);
    return ready(started);
  }
  const api = clientFor(connection);
  show('none');
  mountSearch(api, connection);
  $('search-panel').hidden = false;
  // Whatever waited offline goes now that someone is looking.
  void chrome.runtime.sendMessage({ type: 'flush' });
  if (!isWebPage(page.url)) {
    say('Only web pages can be saved. Search your links below.');
    return ready(started);
  }
  const [found, usage, categories] = await Promise.allSettled([
    api.lookupLink({ query: { url: page.url } }),
    api.subscriptionStatus(),
    api.linkCategories(),
  ]);
  const failures = [found, usage, categories].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (failures.some(isUnauthorized)) {
    showReconnect(connection);
    return ready(started);
  }
  if (categories.status === 'fulfilled') {
    $('categories').replaceChildren(
      ...categories.value.data.map((c) => Object.assign(document.createElement('option'), { value: c })),
    );
  }
  if (usage.status === 'fulfilled') renderUsage(connection, usage.value);
  say('');
  if (found.status === 'fulfilled' && found.value.data) {
    showSaved(api, connection, found.value.data);
    mountLogin(connection, page, found.value.data);
  } else {
    if (found.status === 'rejected') {
      const reason = found.reason as unknown;
      say(
        reason instanceof ApiError
          ? reason.message
          : 'Linkwise cannot be reached right now. Saving still works: the page is sent when the server is back.',
        'warn',
      );
    }
    showNew(api, connection, page, usage.status !== 'fulfilled' || usage.value.canAddLinks);
    mountLogin(connection, page, null);
  }
  ready(started);
}

/** Marks the popup interactive (the benchmark and the browser suites wait for this). */
function ready(started: number): void {
  document.body.dataset.ready = 'true';
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.mainMs = String(Math.round(performance.now() - started));
}

void main();
