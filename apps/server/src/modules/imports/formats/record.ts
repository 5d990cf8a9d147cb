import type { EncryptedCredential, VaultKeyMaterial } from '@linkwise/contract';

/**
 * One item of a file as its parser read it, before the mapping rules (folders → category or tags,
 * limits, URL checks) turn it into a link. Parsers keep what the source says and put what has no
 * field of its own into `extras`, which the mapping writes into notes: nothing is silently dropped.
 */
export interface ImportRecord {
  url: string;
  title: string;
  description: string;
  notes: string;
  tags: string[];
  /** The folders or collections holding the item, outermost first. */
  folders: string[];
  isRead: boolean;
  isReadLater: boolean;
  /** Epoch ms of the original save, when the source has one. */
  createdAt: number | null;
  updatedAt: number | null;
  /** Labelled values the source holds that no field takes ("Highlights", "Author", …). */
  extras: [string, string][];
  /** Set when the parser already knows the item cannot be imported (a note without a URL, …). */
  skip?: string;
  /** What the parser had to change about the item, for the import report (kept in `extras` too). */
  notice?: string;
  /** Linkwise's own export: what only a lossless round trip carries. */
  linkwise?: {
    id: string;
    category: string | null;
    aiDescription: string | null;
    favicon: string | null;
    analysisStatus: 'pending' | 'done' | 'failed';
    credentials: EncryptedCredential[];
  };
}

/** The file as a whole cannot be read (not a bookmark file, a truncated ZIP, invalid UTF-8, …). */
export class ImportFileError extends Error {
  override name = 'ImportFileError';
}

/** What a parser yields: records, and once for a Linkwise export, the vault key material it carries. */
export type ParsedItem = { record: ImportRecord } | { vault: VaultKeyMaterial | null };

export function blankRecord(url: string): ImportRecord {
  return {
    url,
    title: '',
    description: '',
    notes: '',
    tags: [],
    folders: [],
    isRead: false,
    isReadLater: false,
    createdAt: null,
    updatedAt: null,
    extras: [],
  };
}

/** Seconds since the epoch (Netscape, Pocket, Instapaper, Karakeep) or an ISO date → epoch ms; null when absent or nonsense. */
export function timeOf(value: unknown): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (value === '') return null;
  if (typeof value === 'number' || /^\d+(\.\d+)?$/.test(String(value))) {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) return null;
    // Seconds until the year 5138; milliseconds (or microseconds, as Firefox writes some) beyond.
    const ms = n < 1e11 ? n * 1000 : n < 1e14 ? n : n / 1000;
    return Math.round(ms);
  }
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? null : parsed;
}

/** Reads a file's text in chunks, refusing bytes that are not UTF-8 (a clear error, not mojibake saved as titles). */
export async function* utf8Chunks(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  try {
    for await (const chunk of chunks) {
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch (error) {
    if (error instanceof TypeError) {
      throw new ImportFileError(
        'The file is not valid UTF-8 text: save it as UTF-8 (in Excel, "CSV UTF-8") and import it again.',
      );
    }
    throw error;
  }
}
