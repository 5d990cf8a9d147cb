import { Parser } from 'htmlparser2';
import { blankRecord, timeOf, utf8Chunks, type ImportRecord, type ParsedItem } from './record.js';

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
  let current: ImportRecord | null = null;
  let last: ImportRecord | null = null;
  let sink: Sink = 'none';
  let text = '';
  let ignored = 0;
  /** Pocket's ril_export.html: the current list's heading. */
  let pocketList: 'unread' | 'read' | null = null;

  const finishText = () => {
    const value = text.replace(/\s+/g, ' ').trim();
    text = '';
    if (sink === 'title' && current) current.title = value;
    else if (sink === 'folder') pendingFolder = value;
    else if (sink === 'description' && last)
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
            // A <DD> after a folder describes the folder (Firefox), not the bookmark before it.
            last = null;
            break;
          case 'h1':
          case 'h2':
            finishText();
            sink = 'heading';
            break;
          case 'dl':
            folders.push(pendingFolder);
            pendingFolder = null;
            break;
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
            if (attrs.toread === '1') current.isReadLater = true;
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
      onclosetag(name) {
        if (name === 'script' || name === 'style' || name === 'template') {
          ignored = Math.max(0, ignored - 1);
          return;
        }
        if (name === 'a' && current) {
          finishText();
          ready.push(current);
          last = current;
          current = null;
        } else if (name === 'h3' || name === 'h1' || name === 'h2') {
          finishText();
        } else if (name === 'dl') {
          if (sink === 'description') finishText();
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
  for await (const chunk of utf8Chunks(chunks)) {
    parser.write(chunk);
    yield* flush(false);
  }
  parser.end();
  if (current) ready.push(current);
  yield* flush(true);
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
