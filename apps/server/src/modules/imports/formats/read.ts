import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ImportFormat } from '@linkwise/contract';
import { csvDelimiter, parseCsv, sniffCsv } from './csv.js';
import { omnivoreRecord, parseJson, parseLinkwarden, sniffJson } from './json.js';
import { pickJson } from './json-stream.js';
import { parseNetscape, sniffHtml } from './netscape.js';
import { ImportFileError, utf8Chunks, type ParsedItem } from './record.js';
import { parseUrlList, sniffUrlList } from './url-list.js';
import { entryChunks, zipEntries, zipNames } from './zip.js';

const HEAD_BYTES = 64 * 1024;
const MAX_HIGHLIGHT_CHARS = 10_000;

/** Omnivore's highlights are held in memory until their links are read: at most this much in all. */
const MAX_HIGHLIGHTS_TOTAL_CHARS = 50_000_000;

async function head(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
const pocketPart = (name: string) => /(^|\/)[^/]*\.csv$/i.test(name) && !name.startsWith('__MACOSX');
const omnivoreMetadata = (name: string) => /(^|\/)metadata_[^/]*\.json$/i.test(name);
const omnivoreHighlight = (name: string) => /(^|\/)highlights\/[^/]+\.md$/i.test(name);

/** Which format a stored file is, from its content; null when it is none Linkwise reads. */
export async function detectFormat(file: string): Promise<ImportFormat | null> {
  const bytes = await head(file);
  if (isZip(bytes)) {
    const names = await zipNames(file);
    if (names.some(omnivoreMetadata)) return 'omnivore';
    for await (const entry of zipEntries(file, pocketPart)) {
      if (!entry.stream) continue;
      const first = await firstChunk(entry.stream);
      if (sniffCsv(first) === 'pocket') return 'pocket';
    }
    return null;
  }
  const text = bytes.toString('utf8');
  if (!text.replace(/^\uFEFF/, '').trim()) throw new ImportFileError('The file is empty.');
  return sniffJson(text) ?? sniffCsv(text) ?? sniffHtml(text) ?? sniffUrlList(text);
}

async function firstChunk(stream: AsyncIterable<unknown>): Promise<string> {
  for await (const chunk of stream) return Buffer.from(chunk as Buffer).toString('utf8');
  return '';
}

const fileChunks = (file: string) => createReadStream(file, { highWaterMark: 64 * 1024 });

/**
 * The legacy charset a bookmarks file declares in its <meta> (an old browser's or a hand-saved
 * file), as the Encoding standard names it; null for UTF-8, none, or one this runtime cannot decode.
 */
function declaredCharset(head: string): string | null {
  const label = /<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (!label) return null;
  try {
    const encoding = new TextDecoder(label).encoding;
    return encoding === 'utf-8' ? null : encoding;
  } catch {
    return null;
  }
}

async function isUtf8File(file: string): Promise<boolean> {
  try {
    for await (const _text of utf8Chunks(fileChunks(file))) {
      // Only decoded, to find a byte that is not UTF-8.
    }
    return true;
  } catch (error) {
    if (error instanceof ImportFileError) return false;
    throw error;
  }
}

async function* decodedAs(chunks: AsyncIterable<Buffer>, encoding: string): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
  yield decoder.decode();
}

/** Every item of a stored file of a known format, in file order (the same order on every read: resuming relies on it). */
/**
 * `highlights: false` reads Omnivore's links without their highlights (kept in separate files):
 * what counting the links or a preview needs, without reading every highlight first.
 */
export async function* readImportFile(
  file: string,
  format: ImportFormat,
  { highlights: withHighlights = true }: { highlights?: boolean } = {},
): AsyncGenerator<ParsedItem> {
  const start = await head(file);
  const zipped = isZip(start);
  switch (format) {
    case 'netscape':
      if (zipped) throw new ImportFileError('Expected a bookmarks HTML file, not a ZIP archive.');
      {
        // A file that says it is Windows-1252 (or another legacy charset) and is not UTF-8 is read
        // as it says; one that says so but is UTF-8 after all (a copied header) is read as UTF-8.
        const charset = declaredCharset(start.toString('latin1'));
        if (charset && !(await isUtf8File(file))) {
          yield* parseNetscape(decodedAs(fileChunks(file), charset));
          return;
        }
      }
      yield* parseNetscape(fileChunks(file));
      return;
    case 'pocket':
      if (!zipped) {
        const text = start.toString('utf8');
        yield* sniffCsv(text) === 'pocket' ? parseCsv(fileChunks(file), 'pocket') : parseNetscape(fileChunks(file));
        return;
      }
      for await (const entry of zipEntries(file, pocketPart)) {
        if (entry.stream) yield* parseCsv(entryChunks(entry.stream), 'pocket');
      }
      return;
    case 'raindrop':
    case 'instapaper':
    case 'csv':
      if (zipped) throw new ImportFileError('Expected a CSV file, not a ZIP archive.');
      yield* parseCsv(fileChunks(file), format, format === 'csv' ? csvDelimiter(start.toString('utf8')) : ',');
      return;
    case 'urls':
      if (zipped) throw new ImportFileError('Expected a text file of addresses, not a ZIP archive.');
      yield* parseUrlList(fileChunks(file));
      return;
    case 'linkwise':
    case 'karakeep':
      yield* parseJson(fileChunks(file), format);
      return;
    case 'linkwarden':
      yield* parseLinkwarden(() => fileChunks(file));
      return;
    case 'omnivore': {
      if (!zipped) {
        yield* parseJson(fileChunks(file), 'omnivore');
        return;
      }
      const highlights = new Map<string, string>();
      // Highlights past the budget are left out, and the links they belong to say so.
      const left = new Set<string>();
      let held = 0;
      for await (const entry of zipEntries(file, (name) => withHighlights && omnivoreHighlight(name))) {
        if (!entry.stream) continue;
        const slug = entry.name.replace(/^.*\//, '').replace(/\.md$/i, '');
        if (held >= MAX_HIGHLIGHTS_TOTAL_CHARS) {
          left.add(slug);
          continue;
        }
        let text = '';
        // Decoded as one stream: a character split between two chunks stays whole.
        for await (const chunk of utf8Chunks(entryChunks(entry.stream))) {
          if (text.length < MAX_HIGHLIGHT_CHARS) text += chunk;
        }
        text = text.trim().slice(0, MAX_HIGHLIGHT_CHARS);
        held += text.length;
        if (text) highlights.set(slug, text);
      }
      for await (const entry of zipEntries(file, omnivoreMetadata)) {
        if (!entry.stream) continue;
        for await (const { value } of pickJson(entryChunks(entry.stream), (p) => p.length === 1)) {
          yield { record: omnivoreRecord(value, highlights, left) };
        }
      }
      return;
    }
  }
}
