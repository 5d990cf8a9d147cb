import { Readable } from 'node:stream';
import { LINKWISE_EXPORT_VERSION, type ExportFormat, type Link } from '@linkwise/contract';
import { stringify } from 'csv-stringify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toIso, type Clock } from '../../lib/clock.js';
import { LinkExportRepository } from '../links/link-import.repository.js';
import type { LinkRepository } from '../links/link.repository.js';
import { toLink } from '../links/link.service.js';
import type { VaultRepository } from '../vault/vault.repository.js';
import { spreadsheetCell } from './formats/csv.js';

const PAGE = 1000;

export interface ExportDeps {
  db: Kysely<DB>;
  links: LinkRepository;
  vaults: VaultRepository;
  clock: Clock;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Exports, streamed: links are read a page at a time (keyset, oldest first) and written as they
 * come, so 100,000 links never sit in memory together. JSON is lossless (credentials as ciphertext
 * with the vault's key material); HTML is the Netscape format browsers and peers import; CSV is for
 * spreadsheets.
 */
export class ExportService {
  private readonly pages: LinkExportRepository;

  constructor(private readonly deps: ExportDeps) {
    this.pages = new LinkExportRepository(deps.db);
  }

  fileName(format: ExportFormat): string {
    const day = toIso(this.deps.clock.now()).slice(0, 10);
    return `linkwise-export-${day}.${format}`;
  }

  contentType(format: ExportFormat): string {
    return { json: 'application/json', html: 'text/html', csv: 'text/csv' }[format] + '; charset=utf-8';
  }

  stream(userId: string, format: ExportFormat): Readable {
    const source = format === 'json' ? this.json(userId) : format === 'html' ? this.html(userId) : this.csv(userId);
    return Readable.from(source, { objectMode: false });
  }

  /** Every link of the user, oldest first, one page in memory at a time. */
  async *links(userId: string, category?: string | null): AsyncGenerator<Link> {
    let after: { createdAt: number; id: string } | null = null;
    for (;;) {
      const rows = await this.pages.page(userId, after, PAGE, category);
      for (const hydrated of await this.deps.links.hydrate(rows)) yield toLink(hydrated);
      if (rows.length < PAGE) return;
      const last = rows.at(-1)!;
      after = { createdAt: last.created_at, id: last.id };
    }
  }

  async *json(userId: string): AsyncGenerator<string> {
    const vault = await this.deps.vaults.find(userId);
    yield `{"format":"linkwise","version":${LINKWISE_EXPORT_VERSION},"exportedAt":${JSON.stringify(toIso(this.deps.clock.now()))},`;
    yield `"vault":${JSON.stringify(vault?.material ?? null)},\n"links":[`;
    let first = true;
    let chunk = '';
    for await (const link of this.links(userId)) {
      chunk += (first ? '\n' : ',\n') + JSON.stringify(link);
      first = false;
      if (chunk.length > 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}\n]}\n`;
  }

  private htmlLink(link: Link): string {
    const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
    const attrs = [
      `HREF="${escapeHtml(link.url)}"`,
      `ADD_DATE="${seconds(link.createdAt)}"`,
      `LAST_MODIFIED="${seconds(link.updatedAt)}"`,
      link.tags.length ? `TAGS="${escapeHtml(link.tags.join(','))}"` : '',
      link.isReadLater ? 'TOREAD="1"' : '',
    ].filter(Boolean);
    const description = link.description || link.aiDescription || '';
    return `    <DT><A ${attrs.join(' ')}>${escapeHtml(link.title)}</A>\n${description ? `    <DD>${escapeHtml(description)}\n` : ''}`;
  }

  async *html(userId: string): AsyncGenerator<string> {
    yield [
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
      '<!-- This is an automatically generated file. It will be read and overwritten. DO NOT EDIT! -->',
      '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
      '<TITLE>Bookmarks</TITLE>',
      '<H1>Bookmarks</H1>',
      '<DL><p>',
      '',
    ].join('\n');
    for (const category of await this.pages.categories(userId)) {
      // Marked as a category, so importing the file back keeps one called "Favorites" (browsers ignore it).
      yield `  <DT><H3 LINKWISE_CATEGORY="true">${escapeHtml(category)}</H3>\n  <DL><p>\n`;
      let chunk = '';
      for await (const link of this.links(userId, category)) {
        chunk += this.htmlLink(link);
        if (chunk.length > 64 * 1024) {
          yield chunk;
          chunk = '';
        }
      }
      yield `${chunk}  </DL><p>\n`;
    }
    let chunk = '';
    for await (const link of this.links(userId, null)) {
      chunk += this.htmlLink(link);
      if (chunk.length > 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}</DL><p>\n`;
  }

  async *csv(userId: string): AsyncGenerator<string> {
    const columns = [
      'url',
      'title',
      'description',
      'category',
      'tags',
      'notes',
      'isRead',
      'isReadLater',
      'createdAt',
      'updatedAt',
      'aiDescription',
    ];
    const stringifier = stringify({ header: true, columns, bom: true });
    const rows = async function* (self: ExportService) {
      for await (const link of self.links(userId)) {
        yield [
          link.url,
          spreadsheetCell(link.title),
          spreadsheetCell(link.description),
          spreadsheetCell(link.category ?? ''),
          spreadsheetCell(link.tags.join(', ')),
          spreadsheetCell(link.notes),
          link.isRead ? 'true' : 'false',
          link.isReadLater ? 'true' : 'false',
          link.createdAt,
          link.updatedAt,
          spreadsheetCell(link.aiDescription ?? ''),
        ];
      }
    };
    const out = Readable.from(rows(this)).pipe(stringifier);
    for await (const chunk of out) yield String(chunk);
  }
}
