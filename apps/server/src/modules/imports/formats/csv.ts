import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { blankRecord, ImportFileError, timeOf, utf8Chunks, type ImportRecord, type ParsedItem } from './record.js';

export type CsvFormat = 'pocket' | 'raindrop' | 'instapaper';
type Row = Record<string, string | undefined>;

/** Which export a CSV header is: each service's columns as its documentation and export name them. */
export function sniffCsv(head: string): CsvFormat | null {
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const columns = new Set(firstLine.split(',').map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase()));
  if (columns.has('url') && columns.has('time_added') && columns.has('status')) return 'pocket';
  if (columns.has('url') && columns.has('folder') && columns.has('excerpt') && columns.has('created'))
    return 'raindrop';
  if (columns.has('url') && columns.has('folder') && columns.has('selection') && columns.has('timestamp')) {
    return 'instapaper';
  }
  return null;
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
  // Raindrop writes nested collections as "Parent / Child".
  record.folders = split(row.folder, /\s*\/\s*/);
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
  else if (folder) record.folders = [folder];
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
};

/** Streams a CSV export row by row (csv-parse): only the current row is held. */
export async function* parseCsv(chunks: AsyncIterable<Buffer | string>, format: CsvFormat): AsyncGenerator<ParsedItem> {
  const parser = parse({
    bom: true,
    columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
    relax_column_count: true,
    skip_empty_lines: true,
  });
  // pipeline (not pipe) hands a decoding error on to the parser, which the loop below then throws.
  pipeline(Readable.from(utf8Chunks(chunks)), parser, () => undefined);
  const map = mappers[format];
  try {
    for await (const row of parser as AsyncIterable<Row>) yield { record: map(row) };
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ImportFileError(`The CSV file could not be read: ${message}`);
  }
}
