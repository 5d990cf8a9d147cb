import { Parser } from 'htmlparser2';
import { blankRecord, ImportFileError, timeOf, utf8Chunks, type ImportRecord, type ParsedItem } from './record.js';

/**
 * The folders browsers put every bookmark under, by name, for browsers that do not mark them
 * (Chrome's and Edge's "Other" and "Mobile" folders, Safari's): containers, not categories. Firefox
 * and Chrome mark their toolbar with an attribute, in any language.
 */
const ROOT_NAMES = new Set(
  [
    'bookmarks bar',
    'bookmarks toolbar',
    'bookmarks menu',
    'other bookmarks',
    'mobile bookmarks',
    'favorites bar',
    'favourites bar',
    'favorites',
    'favourites',
    'other favorites',
    'other favourites',
    'mobile favorites',
    'bookmarks',
    // The same folders in the languages most exports come in (de, fr, es, it, pt, nl, pl, ru).
    'lesezeichenleiste',
    'weitere lesezeichen',
    'mobile lesezeichen',
    'favoritenleiste',
    'barre de favoris',
    'autres favoris',
    'favoris sur mobile',
    'barra de marcadores',
    'otros marcadores',
    'marcadores del móvil',
    'barra dei preferiti',
    'altri preferiti',
    'preferiti su dispositivi mobili',
    'outros favoritos',
    'favoritos móveis',
    'bladwijzerbalk',
    'andere bladwijzers',
    'mobiele bladwijzers',
    'pasek zakładek',
    'inne zakładki',
    'zakładki na komórce',
    'панель закладок',
    'другие закладки',
    'мобильные закладки',
  ].map((n) => n.toLocaleLowerCase('en-US')),
);

/** Where text inside the document goes while the parser walks it. */
type Sink = 'none' | 'title' | 'folder' | 'description' | 'heading';

/**
 * Netscape bookmark HTML (Chrome, Edge, Firefox, Safari, Brave, linkding, Raindrop, Karakeep) and
 * Pocket's older `ril_export.html` (an "Unread" and a "Read Archive" list), read as a stream with
 * htmlparser2: only the current item and the folder path live in memory. Markup inside titles and
 * descriptions is never kept (text only) and scripts are neither run nor read.
 */
export async function* parseNetscape(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<ParsedItem> {
  const ready: ImportRecord[] = [];
  const folders: (string | null)[] = [];
  let pendingFolder: string | null = null;
  /** The heading being read is marked as a browser's own folder (toolbar, unfiled, Safari's lists). */
  let pendingRoot = false;
  /** Safari's Reading List: what it holds is to be read later. */
  let pendingReadingList = false;
  /** The heading is a category of Linkwise's own export: never a browser's container. */
  let pendingCategory = false;
  let readingListDepth = -1;
  let current: ImportRecord | null = null;
  let last: ImportRecord | null = null;
  let sink: Sink = 'none';
  let text = '';
  let ignored = 0;
  let ending = false;
  let cutShort = false;
  /** Pocket's ril_export.html: the current list's heading. */
  let pocketList: 'unread' | 'read' | null = null;

  const finishText = () => {
    const value = text.replace(/\s+/g, ' ').trim();
    text = '';
    if (sink === 'title' && current) current.title = value;
    else if (sink === 'folder') {
      pendingFolder = value;
      pendingRoot ||= !pendingCategory && ROOT_NAMES.has(value.toLocaleLowerCase('en-US'));
    } else if (sink === 'description' && last)
      last.description = last.description ? `${last.description} ${value}` : value;
    else if (sink === 'heading') {
      const heading = value.toLowerCase();
      pocketList = heading.includes('read archive') ? 'read' : heading.includes('unread') ? 'unread' : pocketList;
    }
    sink = 'none';
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'script' || name === 'style' || name === 'template') {
          ignored += 1;
          return;
        }
        if (
          sink === 'description' &&
          (name === 'dt' || name === 'dl' || name === 'h3' || name === 'a' || name === 'dd')
        ) {
          finishText();
        }
        switch (name) {
          case 'h3':
            finishText();
            sink = 'folder';
            pendingRoot = attrs.personal_toolbar_folder === 'true' || attrs.unfiled_bookmarks_folder === 'true';
            pendingReadingList = attrs.id === 'com.apple.ReadingList';
            pendingRoot ||= pendingReadingList;
            // Linkwise's own export: a category, whatever its name.
            pendingCategory = attrs.linkwise_category === 'true';
            // A <DD> after a folder describes the folder (Firefox), not the bookmark before it.
            last = null;
            break;
          case 'h1':
          case 'h2':
            finishText();
            sink = 'heading';
            break;
          case 'dl': {
            // Only an outermost folder is a browser's container: a folder of that name inside
            // another folder is the user's. A container stays on the path as '' (not a category).
            const outermost = folders.every((f) => f === null);
            folders.push(pendingRoot && outermost ? '' : pendingFolder);
            if (pendingReadingList) readingListDepth = folders.length;
            pendingFolder = null;
            pendingRoot = false;
            pendingReadingList = false;
            break;
          }
          case 'a': {
            finishText();
            const href = attrs.href ?? '';
            current = blankRecord(href.trim());
            current.folders = folders.filter((f): f is string => Boolean(f));
            current.createdAt = timeOf(attrs.add_date ?? attrs.time_added);
            current.updatedAt = timeOf(attrs.last_modified);
            current.tags = (attrs.tags ?? '')
              .split(/[,|]/)
              .map((t) => t.trim())
              .filter(Boolean);
            if (attrs.toread === '1' || readingListDepth > 0) current.isReadLater = true;
            if (pocketList === 'unread') current.isReadLater = true;
            if (pocketList === 'read') current.isRead = true;
            if (attrs.shortcuturl) current.extras.push(['Keyword', attrs.shortcuturl]);
            if (attrs.private === '1') current.extras.push(['Private', 'yes']);
            if (attrs.feed === 'true' || attrs.feedurl) current.extras.push(['Feed', attrs.feedurl ?? 'yes']);
            sink = 'title';
            break;
          }
          case 'dd':
            sink = 'description';
            break;
        }
      },
      ontext(data) {
        if (ignored > 0 || sink === 'none') return;
        text += data;
      },
      onclosetag(name, isImplied) {
        if (name === 'script' || name === 'style' || name === 'template') {
          ignored = Math.max(0, ignored - 1);
          return;
        }
        if (name === 'a' && current) {
          // Still open when the file ends: the file stops inside this bookmark (a browser always
          // closes it), so its title may be cut; the whole file is refused, as a cut JSON or ZIP is.
          if (isImplied && ending) {
            cutShort = true;
            current = null;
            return;
          }
          finishText();
          ready.push(current);
          last = current;
          current = null;
        } else if (name === 'h3' || name === 'h1' || name === 'h2') {
          finishText();
        } else if (name === 'dl') {
          if (sink === 'description') finishText();
          if (folders.length === readingListDepth) readingListDepth = -1;
          folders.pop();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  // A description belongs to the item before it and may run on after it: hold the newest back.
  const flush = function* (all: boolean): Generator<ParsedItem> {
    const keep = all ? 0 : 1;
    while (ready.length > keep) yield { record: ready.shift()! };
  };
  // The file's last characters: one that stops inside a tag (`<DT><A HRE`) is cut short too, though
  // the parser drops the half tag without a word.
  let tail = '';
  for await (const chunk of utf8Chunks(chunks)) {
    parser.write(chunk);
    tail = (tail + chunk).slice(-4096);
    yield* flush(false);
  }
  if (tail.lastIndexOf('<') > tail.lastIndexOf('>')) cutShort = true;
  ending = true;
  parser.end();
  if (current) ready.push(current);
  yield* flush(true);
  if (cutShort) {
    throw new ImportFileError(
      'The bookmarks file is cut short: it ends in the middle of a bookmark. Export it again and import the whole file.',
    );
  }
}

/** A quick look at a file's first bytes: is this a Netscape file, or Pocket's HTML export? */
export function sniffHtml(head: string): 'netscape' | 'pocket' | null {
  const lower = head.slice(0, 65536).toLowerCase();
  if (lower.includes('netscape-bookmark-file')) return 'netscape';
  if (/<title>\s*pocket export/.test(lower) || (/<h1>\s*unread\s*<\/h1>/.test(lower) && lower.includes('time_added'))) {
    return 'pocket';
  }
  if (/<dl>/.test(lower) && /<dt>\s*<a\s[^>]*href=/.test(lower)) return 'netscape';
  return null;
}
