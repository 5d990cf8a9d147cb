import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { blankRecord, ImportFileError, timeOf, utf8Chunks, type ImportRecord, type ParsedItem } from './record.js';

/** `csv`: any other CSV with a url column (Linkwise's own CSV export, a spreadsheet), read by its column names. */
export type CsvFormat = 'pocket' | 'raindrop' | 'instapaper' | 'csv';
type Row = Record<string, string | undefined>;

const headerOf = (head: string) => head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
const columnsOf = (line: string, delimiter: string) =>
  new Set(line.split(delimiter).map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase()));

/**
 * The delimiter of a generic CSV: ';' when its header names a url column only when split on ';'
 * (spreadsheets save so where the comma is the decimal mark: German, French…), else ','.
 */
export function csvDelimiter(head: string): ',' | ';' {
  const line = headerOf(head);
  const hasUrl = (columns: Set<string>) => URL_COLUMNS.some((c) => columns.has(c));
  return !hasUrl(columnsOf(line, ',')) && hasUrl(columnsOf(line, ';')) ? ';' : ',';
}

/** Which export a CSV header is: each service's columns as its documentation and export name them. */
export function sniffCsv(head: string): CsvFormat | null {
  const firstLine = headerOf(head);
  const columns = columnsOf(firstLine, csvDelimiter(head));
  if (columns.has('url') && columns.has('time_added') && columns.has('status')) return 'pocket';
  if (columns.has('url') && columns.has('folder') && columns.has('excerpt') && columns.has('created'))
    return 'raindrop';
  if (columns.has('url') && columns.has('folder') && columns.has('selection') && columns.has('timestamp')) {
    return 'instapaper';
  }
  if (URL_COLUMNS.some((c) => columns.has(c))) return 'csv';
  return null;
}

/** The names a column of each field goes by in a generic CSV, compared lowercased without spaces, '_' or '-'. */
const URL_COLUMNS = ['url', 'link', 'href', 'address'];
const GENERIC: Record<
  'title' | 'description' | 'category' | 'tags' | 'notes' | 'read' | 'later' | 'created' | 'updated',
  string[]
> = {
  title: ['title', 'name'],
  description: ['description', 'excerpt', 'summary'],
  category: ['category', 'folder', 'collection'],
  tags: ['tags', 'tag', 'labels'],
  notes: ['notes', 'note', 'comment'],
  read: ['isread', 'read'],
  later: ['isreadlater', 'readlater', 'unread'],
  created: ['createdat', 'created', 'dateadded', 'added', 'timeadded'],
  updated: ['updatedat', 'updated', 'lastmodified', 'modified'],
};

/** How a cell a spreadsheet would run as a formula starts; Linkwise's CSV export guards it with a quote. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet would run, or that reads so once one leading quote is taken off ("'=x"). */
const needsGuard = (text: string): boolean =>
  FORMULA_START.test(text) || (text.startsWith("'") && needsGuard(text.slice(1)));

/**
 * A cell as the CSV export writes it: a formula-like text behind a leading quote (OWASP CSV
 * injection); a text that already starts with a quote before one gets another, so it reads back whole.
 */
export const spreadsheetCell = (text: string): string => (needsGuard(text) ? `'${text}` : text);

/** The text of a cell `spreadsheetCell` guarded. */
const unguarded = (text: string): string => (text.startsWith("'") && needsGuard(text.slice(1)) ? text.slice(1) : text);

const yes = (value: string | undefined) => ['true', 'yes', '1', 'y'].includes(value?.trim().toLowerCase() ?? '');

/**
 * A CSV read by its column names. Columns no field takes go into the notes (as every importer does),
 * except `aiDescription` of Linkwise's own export: the page is analysed again after the import.
 */
function genericRow(row: Row): ImportRecord {
  const key = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');
  const plain = (value: string | undefined) => unguarded(value?.trim() ?? '');
  const byKey = new Map(Object.entries(row).map(([name, value]) => [key(name), plain(value)]));
  const pick = (names: string[]) => names.map((n) => byKey.get(n)).find((v) => v) ?? '';
  const record = blankRecord(pick(URL_COLUMNS));
  record.title = pick(GENERIC.title);
  record.description = pick(GENERIC.description);
  record.notes = pick(GENERIC.notes);
  // A category is one name ("AC/DC"); a folder or collection column may be a path ("Work / Papers").
  const category = byKey.get('category');
  const folder = pick(GENERIC.category.filter((n) => n !== 'category'));
  if (category) record.folders = [category];
  else if (folder) record.folders = split(folder, /\s*\/\s*/);
  // Tags never hold a comma, so a list with one is split there only ("a|b, c"); else on '|' as Pocket
  // writes, except in Linkwise's own export (its aiDescription column), which joins them with commas.
  const tags = pick(GENERIC.tags);
  const ownExport = byKey.has('aidescription');
  record.tags = split(tags, tags.includes(',') || ownExport ? /,/ : /\|/);
  record.isRead = yes(pick(GENERIC.read));
  record.isReadLater = yes(pick(GENERIC.later));
  record.createdAt = timeOf(pick(GENERIC.created));
  record.updatedAt = timeOf(pick(GENERIC.updated));
  const taken = new Set([...URL_COLUMNS, ...Object.values(GENERIC).flat(), 'aidescription']);
  for (const [name, value] of Object.entries(row)) {
    if (value?.trim() && !taken.has(key(name))) record.extras.push([name, plain(value)]);
  }
  return record;
}

const split = (value: string | undefined, separator: RegExp) =>
  (value ?? '')
    .split(separator)
    .map((t) => t.trim())
    .filter(Boolean);

function pocketRow(row: Row): ImportRecord {
  const record = blankRecord(row.url?.trim() ?? '');
  record.title = row.title?.trim() ?? '';
  record.createdAt = timeOf(row.time_added);
  record.tags = split(row.tags, /\|/);
  const status = row.status?.trim().toLowerCase();
  record.isRead = status === 'archive' || status === 'archived' || status === 'read';
  record.isReadLater = !record.isRead;
  return record;
}

function raindropRow(row: Row): ImportRecord {
  const record = blankRecord(row.url?.trim() ?? '');
  record.title = row.title?.trim() ?? '';
  record.description = row.excerpt?.trim() ?? '';
  record.notes = row.note?.trim() ?? '';
  // Raindrop writes nested collections as "Parent / Child"; "Unsorted" is no collection at all.
  record.folders = split(row.folder, /\s*\/\s*/);
  if (record.folders[0]?.toLowerCase() === 'unsorted') record.folders.shift();
  record.tags = split(row.tags, /,/);
  record.createdAt = timeOf(row.created);
  if (row.highlights?.trim()) record.extras.push(['Highlights', row.highlights.trim()]);
  if (row.favorite?.trim().toLowerCase() === 'true') record.tags.push('favorite');
  if (row.cover?.trim()) record.extras.push(['Cover', row.cover.trim()]);
  return record;
}

/** Instapaper's built-in folders are states, not categories. */
function instapaperRow(row: Row): ImportRecord {
  const record = blankRecord(row.url?.trim() ?? '');
  record.title = row.title?.trim() ?? '';
  record.description = row.selection?.trim() ?? '';
  record.createdAt = timeOf(row.timestamp);
  const folder = row.folder?.trim() ?? '';
  const state = folder.toLowerCase();
  if (state === 'unread') record.isReadLater = true;
  else if (state === 'archive') record.isRead = true;
  else if (state === 'starred') record.tags.push('starred');
  else if (folder) {
    // A folder of the user's own holds items not archived: still to read, as in Unread.
    record.folders = [folder];
    record.isReadLater = true;
  }
  const tags = row.tags?.trim();
  if (tags) {
    try {
      const parsed: unknown = JSON.parse(tags);
      if (Array.isArray(parsed)) record.tags.push(...parsed.filter((t): t is string => typeof t === 'string'));
    } catch {
      record.tags.push(...split(tags, /,/));
    }
  }
  return record;
}

const mappers: Record<CsvFormat, (row: Row) => ImportRecord> = {
  pocket: pocketRow,
  raindrop: raindropRow,
  instapaper: instapaperRow,
  csv: genericRow,
};

/** Streams a CSV export row by row (csv-parse): only the current row is held. */
export async function* parseCsv(
  chunks: AsyncIterable<Buffer | string>,
  format: CsvFormat,
  delimiter: ',' | ';' = ',',
): AsyncGenerator<ParsedItem> {
  // Rows as arrays, named here: csv-parse's own naming drops the cells past the header's last column.
  const parser = parse({ bom: true, delimiter, relax_column_count: true, skip_empty_lines: true });
  // pipeline (not pipe) hands a decoding error on to the parser, which the loop below then throws.
  pipeline(Readable.from(utf8Chunks(chunks)), parser, () => undefined);
  const map = mappers[format];
  let header: string[] | null = null;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (!header) {
        // A generic CSV keeps its headers as written: they label the columns kept in notes.
        header = cells.map((h) => (format === 'csv' ? h.trim() : h.trim().toLowerCase()));
        continue;
      }
      const row: Row = {};
      header.forEach((name, i) => {
        if (i < cells.length) row[name] = cells[i];
      });
      const record = map(row);
      // Cells past the header: most often a title or a note with a comma the file left unquoted.
      const more = cells.slice(header.length).filter((c) => c.trim());
      if (more.length > 0) {
        record.extras.push(['Cells past the last column', more.map((c) => c.trim()).join(' | ')]);
        record.notice = `Its row had ${more.length} ${more.length === 1 ? 'cell' : 'cells'} past the last column (an unquoted comma?), kept in its notes`;
      }
      yield { record };
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ImportFileError(`The CSV file could not be read: ${message}`);
  }
}
