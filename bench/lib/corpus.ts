/**
 * The shared page corpus (../shared/corpus/pages: input.html + expected.json per page) as links:
 * title and description from the reference values, page text = the first 300 words of the page's
 * paragraphs (what the analysis keeps for the index and the vector, ARCHITECTURE §4).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFacts } from '../../apps/server/src/modules/pages/extract-facts.js';
import type { PageFacts } from '../../apps/server/src/modules/pages/extractor.js';

export const CORPUS_DIR: string =
  process.env.CORPUS_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/corpus/pages');

export interface CorpusPage {
  name: string;
  url: string;
  title: string;
  description: string;
  publisher: string | null;
  text: string;
}

const PAGE_WORDS = 300;

/** Paragraph text of an HTML page: scripts, styles and markup removed, short fragments (menus) dropped. */
export function paragraphText(html: string, words = PAGE_WORDS): string {
  const clean = html.replace(/<(script|style|noscript|svg)[\s\S]*?<\/\1>/gi, ' ');
  const paragraphs = [...clean.matchAll(/<p[\s>][\s\S]*?<\/p>/gi)]
    .map((m) =>
      m[0]
        .replace(/<[^>]+>/g, ' ')
        .replace(/&[a-z#0-9]+;/gi, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((p) => p.split(' ').length >= 6);
  return paragraphs.join(' ').split(' ').slice(0, words).join(' ');
}

export function loadCorpus(): CorpusPage[] {
  return readdirSync(CORPUS_DIR)
    .sort()
    .map((name) => {
      const expected = JSON.parse(readFileSync(path.join(CORPUS_DIR, name, 'expected.json'), 'utf8')) as {
        url?: string;
        sourceUrl?: string;
        title?: string | null;
        description?: string | null;
        publisher?: string | null;
      };
      return {
        name,
        url: expected.url ?? expected.sourceUrl ?? `https://${name}.example/`,
        title: expected.title ?? name,
        description: expected.description ?? '',
        publisher: expected.publisher ?? null,
        text: paragraphText(readFileSync(path.join(CORPUS_DIR, name, 'input.html'), 'utf8')),
      };
    });
}

/** Words the evaluation ignores when checking that a query avoids its target's words. */
export const STOP = new Set(
  (
    'a an the of to in on for and or with about how what why is are be from by at as do does i my me your you can ' +
    'that this it its who which when where new way ways best get his her was were not after will up off should s ' +
    'b gets made first next their they them than then into over under just more most some any all have has had'
  ).split(' '),
);

/** Query words (beyond stop words) whose first letters occur as a word start in `text`. */
export function sharedWords(query: string, text: string): string[] {
  const lower = text.toLowerCase();
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));
  return words.filter((w) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${w.slice(0, Math.max(4, w.length - 2))}`, 'u').test(lower),
  );
}

/** What a link's document holds: title, description, URL and page text. */
export const documentOf = (p: CorpusPage) => `${p.title} ${p.description} ${p.url} ${p.text}`;

/** The corpus pages as the analysis job sees them: the server's own extractor over each page. */
export function corpusFacts(): { name: string; facts: PageFacts }[] {
  return loadCorpus().map((page) => {
    const expected = JSON.parse(readFileSync(path.join(CORPUS_DIR, page.name, 'expected.json'), 'utf8')) as {
      sourceUrl: string;
    };
    const html = readFileSync(path.join(CORPUS_DIR, page.name, 'input.html'), 'utf8');
    return { name: page.name, facts: extractFacts(html, expected.sourceUrl) };
  });
}

/** Queries that match nothing in the corpus: the answer must be empty ('No results found'). */
export const NOTHING_QUERIES = [
  'xyzzyqwerty',
  'qwpoeiruty zxmvn',
  'asdfghjkl',
  'grzmblfx vvtrq',
  'lorem ipsum dolor sit amet',
  'knitting patterns for wool socks',
  'medieval falconry',
  'origami crane folding instructions',
  'sourdough starter hydration',
  'volcanic soil viticulture',
];
