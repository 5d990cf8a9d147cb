import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import smartquotes from 'smartquotes';
import type { PageFacts } from './extractor.js';

// Runs in the extraction worker thread (extract.worker.ts): the DOM libraries load only there.

/** The part of linkedom's DOM used here (the server compiles without the DOM library types). */
interface El {
  getAttribute(name: string): string | null;
  querySelector(selector: string): El | null;
  readonly textContent: string | null;
  remove(): void;
}
interface Doc {
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El>;
  readonly documentElement: El | null;
  readonly body: El | null;
}
type Rule = (doc: Doc, ld: LdNode[]) => string | null | undefined;
type LdNode = Record<string, unknown>;

const condense = (value: string | null | undefined): string | null => {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text : null;
};

const meta = (doc: Doc, selector: string): string | null => {
  for (const el of doc.querySelectorAll(selector)) {
    const content = condense(el.getAttribute('content'));
    if (content) return content;
  }
  return null;
};

const textOf = (doc: Doc, selector: string): string | null => condense(doc.querySelector(selector)?.textContent);

/** JSON-LD blocks flattened (arrays and @graph), tolerant of invalid blocks. */
function jsonLd(doc: Doc): LdNode[] {
  const nodes: LdNode[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      nodes.push(value as LdNode);
      const graph = (value as LdNode)['@graph'];
      if (graph) visit(graph);
    }
  };
  for (const script of doc.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      visit(JSON.parse(script.textContent ?? ''));
    } catch {
      // A broken block is common in the wild; the other rules still apply.
    }
  }
  return nodes;
}

/** The first string (or `name` of an object) under `key` in any JSON-LD node. */
function ld(key: string): Rule {
  return (_doc, nodes) => {
    for (const node of nodes) {
      let value = node[key];
      if (Array.isArray(value)) value = value[0];
      if (value && typeof value === 'object') value = (value as LdNode).name ?? (value as LdNode)['@id'];
      if (typeof value === 'string' && condense(value)) return condense(value);
    }
    return null;
  };
}

function first(doc: Doc, nodes: LdNode[], rules: Rule[]): string | null {
  for (const rule of rules) {
    const value = condense(rule(doc, nodes));
    if (value) return value;
  }
  return null;
}

// Rule order follows metascraper's rule packages (Open Graph, then Twitter cards, then meta tags,
// then JSON-LD and markup fallbacks), so results agree with what that ecosystem returns.
const TITLE: Rule[] = [
  (d) => meta(d, 'meta[property="og:title"]'),
  (d) => meta(d, 'meta[name="twitter:title"], meta[property="twitter:title"]'),
  (d) => textOf(d, 'title'),
  ld('headline'),
  (d) => textOf(d, '.post-title'),
  (d) => textOf(d, '.entry-title'),
  (d) => textOf(d, 'h1'),
];
const DESCRIPTION: Rule[] = [
  (d) => meta(d, 'meta[property="og:description"]'),
  (d) => meta(d, 'meta[name="twitter:description"], meta[property="twitter:description"]'),
  (d) => meta(d, 'meta[name="description"], meta[name="Description"]'),
  (d) => meta(d, 'meta[itemprop="description"]'),
  ld('description'),
  (d) => firstParagraph(d),
];

/** The first paragraph with a sentence in it (pages without any description meta tag). */
function firstParagraph(doc: Doc): string | null {
  for (const p of doc.querySelectorAll('p')) {
    const text = condense(p.textContent);
    if (text && text.split(' ').length >= 5) return text;
  }
  return null;
}

/** Typographic quotes and ellipses, as the metascraper ecosystem returns titles and descriptions. */
const typography = (value: string | null): string | null =>
  value && smartquotes.string(value).replace(/\.\.\.(?=\s|$)/g, '…');
const URL_RULES: Rule[] = [
  (d) => meta(d, 'meta[property="og:url"]'),
  (d) => meta(d, 'meta[name="twitter:url"], meta[property="twitter:url"]'),
  (d) => d.querySelector('link[rel="canonical"]')?.getAttribute('href'),
  ld('url'),
];
const IMAGE: Rule[] = [
  (d) => meta(d, 'meta[property="og:image:secure_url"], meta[property="og:image:url"], meta[property="og:image"]'),
  (d) => meta(d, 'meta[name="twitter:image"], meta[property="twitter:image"], meta[name="twitter:image:src"]'),
  (d) => meta(d, 'meta[itemprop="image"]'),
  ld('image'),
  (d) => d.querySelector('article img[src], #content img[src]')?.getAttribute('src'),
];
const PUBLISHER: Rule[] = [
  (d) => meta(d, 'meta[property="og:site_name"]'),
  ld('publisher'),
  (d) => meta(d, 'meta[name="application-name"]'),
  (d) => meta(d, 'meta[name="apple-mobile-web-app-title"]'),
  (d) => meta(d, 'meta[name="twitter:app:name:iphone"], meta[property="twitter:app:name:iphone"]'),
];
const AUTHOR: Rule[] = [
  ld('author'),
  (d) => meta(d, 'meta[name="author"], meta[property="author"]'),
  (d) => meta(d, 'meta[property="article:author"]'),
  (d) => meta(d, 'meta[name="parsely-author"], meta[name="sailthru.author"]'),
  (d) => textOf(d, '[itemprop="author"] [itemprop="name"], [itemprop="author"], [rel="author"]'),
];
const DATE: Rule[] = [
  (d) => meta(d, 'meta[property="article:published_time"], meta[property="og:published_time"]'),
  ld('datePublished'),
  (d) =>
    meta(d, 'meta[name="date"], meta[name="dc.date"], meta[name="DC.date.issued"], meta[itemprop="datePublished"]'),
  (d) => d.querySelector('time[datetime]')?.getAttribute('datetime'),
  ld('dateCreated'),
  (d) => meta(d, 'meta[property="article:modified_time"], meta[property="og:updated_time"]'),
  ld('dateModified'),
];
const LANG: Rule[] = [
  (d) => d.documentElement?.getAttribute('lang'),
  (d) => meta(d, 'meta[property="og:locale"]'),
  (d) => meta(d, 'meta[http-equiv="Content-Language"], meta[http-equiv="content-language"]'),
  ld('inLanguage'),
];

/** At most `max` distinct values, each condensed and at most 80 characters, in order of appearance. */
function distinct(values: Iterable<string | null | undefined>, max: number): string[] {
  const out = new Map<string, string>();
  for (const value of values) {
    const text = condense(value)?.slice(0, 80);
    if (text && !out.has(text.toLowerCase())) out.set(text.toLowerCase(), text);
    if (out.size >= max) break;
  }
  return [...out.values()];
}

/**
 * `Recipe`, `schema:Recipe` or `https://schema.org/Recipe` → `Recipe`; null for another vocabulary's
 * type (a microdata `itemtype` can be any address) or a value that is not a type name.
 */
function schemaName(type: string, ld: boolean): string | null {
  const match = /^(?:(?:https?:\/\/)?(?:www\.)?schema\.org\/|schema:)?([A-Z][A-Za-z]{1,60})$/.exec(type.trim());
  if (!match) return null;
  return ld || match[0] !== match[1] ? match[1]! : null;
}

/** The schema.org types a page declares: JSON-LD `@type`s and microdata `itemtype`s. */
function schemaTypes(doc: Doc, nodes: LdNode[]): string[] {
  const types: (string | null)[] = [];
  for (const node of nodes) {
    const type = node['@type'];
    for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string') types.push(schemaName(t, true));
  }
  for (const el of doc.querySelectorAll('[itemtype]')) {
    for (const t of (el.getAttribute('itemtype') ?? '').split(/\s+/)) types.push(schemaName(t, false));
  }
  return distinct(types, 20);
}

/** Comma-separated keyword lists (`keywords`, `news_keywords`) and one `article:tag` per tag. */
function keywords(doc: Doc): string[] {
  const values: string[] = [];
  for (const el of doc.querySelectorAll('meta[name="keywords"], meta[name="news_keywords"]')) {
    values.push(...(el.getAttribute('content') ?? '').split(','));
  }
  for (const el of doc.querySelectorAll('meta[property="article:tag"]')) values.push(el.getAttribute('content') ?? '');
  return distinct(values, 20);
}

const SECTION: Rule[] = [
  (d) => meta(d, 'meta[property="article:section"], meta[name="article:section"]'),
  ld('articleSection'),
];

function absolute(value: string | null, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function isoDate(value: string | null): string | null {
  if (!value) return null;
  const ms = /^\d{10,13}$/.test(value) ? Number(value.padEnd(13, '0')) : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

function favicon(doc: Doc, base: string): string {
  const icons = [...doc.querySelectorAll('link[rel][href]')].filter((el) =>
    /(^|\s)(icon|shortcut icon|apple-touch-icon)(\s|$)/i.test(el.getAttribute('rel') ?? ''),
  );
  const sized = (el: (typeof icons)[number]) => Number(/(\d+)x\d+/.exec(el.getAttribute('sizes') ?? '')?.[1] ?? 16);
  // Prefer a plain icon of a useful size (≥ 32 px when sizes are declared), else the first one.
  const best = icons.sort((a, b) => Math.min(sized(b), 64) - Math.min(sized(a), 64))[0];
  return absolute(best?.getAttribute('href') ?? null, base) ?? new URL('/favicon.ico', base).href;
}

const MAX_TEXT = 100_000;

/** Metadata and readable text of an HTML page fetched from `pageUrl`. */
export function extractFacts(html: string, pageUrl: string): PageFacts {
  const { document } = parseHTML(html) as unknown as { document: Doc };
  const nodes = jsonLd(document);
  const pick = (rules: Rule[]) => first(document, nodes, rules);
  const lang = pick(LANG)?.replace('_', '-').split('-')[0]?.toLowerCase() ?? null;
  const facts: PageFacts = {
    title: typography(pick(TITLE)),
    description: typography(pick(DESCRIPTION)),
    url: absolute(pick(URL_RULES), pageUrl),
    favicon: favicon(document, pageUrl),
    image: absolute(pick(IMAGE), pageUrl),
    lang: lang && /^[a-z]{2,3}$/.test(lang) ? lang : null,
    publisher: pick(PUBLISHER),
    author: pick(AUTHOR)?.replace(/^by\s+/i, '') ?? null,
    date: isoDate(pick(DATE)),
    text: '',
    ogType: meta(document, 'meta[property="og:type"]')?.toLowerCase() ?? null,
    schemaTypes: schemaTypes(document, nodes),
    section: pick(SECTION)?.slice(0, 80) ?? null,
    keywords: keywords(document),
  };
  facts.text = readableText(document);
  return facts;
}

// Site furniture, removed before Readability: it keeps share bars, sign-up boxes and "related" lists
// that sit inside the article's container, and they leaked into tags and the search text. Elements
// and ARIA roles that are never the article, then class/id words (whole words of the name).
const FURNITURE = [
  'nav, footer, aside, form, button, dialog, select, iframe, [hidden], [aria-modal="true"]',
  ...['navigation', 'banner', 'contentinfo', 'complementary', 'dialog', 'alertdialog', 'search', 'menu', 'menubar'].map(
    (role) => `[role="${role}"]`,
  ),
].join(', ');
const FURNITURE_NAME =
  /(?:^|[-_\s])(?:share|sharing|social|sharebar|cookies?|consent|gdpr|newsletters?|subscribe|subscription|signup|sign-up|login|related|recommended|popular|trending|most-read|breadcrumbs?|comments?|disqus|advert|advertisement|ads?|sponsored|promo|outbrain|taboola|paywall|modal|popup|toolbar|sr-only|visually-hidden|screen-reader-text)(?:[-_\s]|$)/i;

/**
 * Removes site furniture. An element that holds the article (or most of the page's text) stays:
 * some sites wrap the whole page in a form, a dialog or a "page-with-sidebar" block.
 */
function stripFurniture(document: Doc): void {
  const bodyLength = document.body?.textContent?.length ?? 0;
  const holdsArticle = (el: El) =>
    el.querySelector('article, main, [role="main"], h1') !== null || (el.textContent?.length ?? 0) > bodyLength * 0.4;
  for (const el of document.querySelectorAll(FURNITURE)) if (!holdsArticle(el)) el.remove();
  // Skip links ("Skip to content") jump within the page.
  for (const el of document.querySelectorAll('a[href^="#"]')) if (/^\s*skip\b/i.test(el.textContent ?? '')) el.remove();
  for (const el of document.querySelectorAll('[class], [id]')) {
    const name = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
    if (FURNITURE_NAME.test(name) && !holdsArticle(el)) el.remove();
  }
}

/** Readability's article text; the whole body when Readability finds no article. Mutates the document. */
function readableText(document: Doc): string {
  for (const el of document.querySelectorAll('script, style, noscript, template, svg')) el.remove();
  stripFurniture(document);
  let text: string | null | undefined;
  try {
    text = new Readability(document, { charThreshold: 200 }).parse()?.textContent;
  } catch {
    text = null;
  }
  text = condense(text) ?? condense(document.body?.textContent) ?? '';
  return text.slice(0, MAX_TEXT);
}
