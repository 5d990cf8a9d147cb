import { EncryptedCredentialSchema, VaultKeyMaterialSchema } from '@linkwise/contract';
import { z } from 'zod';
import { pickJson } from './json-stream.js';
import { blankRecord, ImportFileError, timeOf, type ImportRecord, type ParsedItem } from './record.js';

export type JsonFormat = 'linkwise' | 'karakeep' | 'linkwarden' | 'omnivore';

type Obj = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The top-level keys of each JSON export, as its documentation and export describe them. */
export function sniffJson(head: string): JsonFormat | null {
  const start = head.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('[')) return /"savedAt"\s*:/.test(start) && /"slug"\s*:/.test(start) ? 'omnivore' : null;
  if (!start.startsWith('{')) return null;
  if (/"format"\s*:\s*"linkwise"/.test(start)) return 'linkwise';
  if (/"bookmarks"\s*:/.test(start)) return 'karakeep';
  if (/"collections"\s*:/.test(start)) return 'linkwarden';
  return null;
}

const LinkwiseLinkSchema = z.object({
  id: z.string().min(1).max(64),
  url: z.string(),
  title: z.string().default(''),
  description: z.string().default(''),
  aiDescription: z.string().nullable().default(null),
  category: z.string().nullable().default(null),
  tags: z.array(z.string()).default([]),
  notes: z.string().default(''),
  isRead: z.boolean().default(false),
  isReadLater: z.boolean().default(false),
  favicon: z.string().nullable().default(null),
  createdAt: z.string().nullable().default(null),
  updatedAt: z.string().nullable().default(null),
  analysisStatus: z.enum(['pending', 'done', 'failed']).default('pending'),
  credentials: z.array(EncryptedCredentialSchema).default([]),
});

function linkwiseRecord(value: unknown): ImportRecord {
  const parsed = LinkwiseLinkSchema.safeParse(value);
  if (!parsed.success) {
    const record = blankRecord(str(obj(value).url));
    record.skip = 'Not a link of a Linkwise export (fields missing or malformed)';
    return record;
  }
  const link = parsed.data;
  const record = blankRecord(link.url);
  Object.assign(record, {
    title: link.title,
    description: link.description,
    notes: link.notes,
    tags: link.tags,
    isRead: link.isRead,
    isReadLater: link.isReadLater,
    createdAt: timeOf(link.createdAt),
    updatedAt: timeOf(link.updatedAt),
  });
  record.linkwise = {
    id: link.id,
    category: link.category,
    aiDescription: link.aiDescription,
    favicon: link.favicon,
    analysisStatus: link.analysisStatus,
    credentials: link.credentials,
  };
  return record;
}

/** Karakeep's export: `{bookmarks: [{createdAt (s), title, tags, content: {type, url}, note, archived, favourited}]}`. */
function karakeepRecord(value: unknown): ImportRecord {
  const b = obj(value);
  const content = obj(b.content);
  const record = blankRecord(str(content.url));
  record.title = str(b.title);
  record.tags = arr(b.tags).map(str).filter(Boolean);
  record.notes = str(b.note);
  record.createdAt = timeOf(b.createdAt);
  record.isRead = b.archived === true;
  if (b.favourited === true) record.tags.push('favourite');
  if (content.type !== undefined && content.type !== 'link') {
    record.skip = `Not a link (a Karakeep ${str(content.type) || 'item'} without an address)`;
  }
  if (str(content.text)) record.extras.push(['Text', str(content.text)]);
  return record;
}

interface Collection {
  name: string;
  parentId: string | null;
}

/** Linkwarden's backup: collections (with parents) holding links (`name` is the title, tags are objects). */
function linkwardenRecord(value: unknown, collections: Map<string, Collection>, collectionId: string): ImportRecord {
  const l = obj(value);
  const record = blankRecord(str(l.url));
  record.title = str(l.name);
  record.description = str(l.description);
  record.tags = arr(l.tags)
    .map((t) => str(obj(t).name))
    .filter(Boolean);
  record.createdAt = timeOf(l.createdAt ?? l.importDate);
  record.updatedAt = timeOf(l.updatedAt);
  const path: string[] = [];
  let id: string | null = str(l.collectionId) || collectionId;
  for (let hops = 0; id && hops < 50; hops++) {
    const c = collections.get(id);
    if (!c) break;
    path.unshift(c.name);
    id = c.parentId;
  }
  record.folders = path;
  if (l.pinnedBy && arr(l.pinnedBy).length > 0) record.tags.push('pinned');
  return record;
}

/** Omnivore's `metadata_*.json`: `[{title, url, description, author, labels, state, savedAt, …}]`. */
export function omnivoreRecord(
  value: unknown,
  highlights: Map<string, string>,
  highlightsLeftOut: ReadonlySet<string> = new Set(),
): ImportRecord {
  const m = obj(value);
  const record = blankRecord(str(m.url));
  record.title = str(m.title);
  record.description = str(m.description);
  record.tags = arr(m.labels)
    .map((t) => (typeof t === 'string' ? t : str(obj(t).name)))
    .filter(Boolean);
  record.createdAt = timeOf(m.savedAt);
  record.updatedAt = timeOf(m.updatedAt);
  const state = str(m.state).toLowerCase();
  record.isRead = state === 'archived';
  record.isReadLater = !record.isRead;
  if (state === 'deleted') record.skip = 'Deleted in Omnivore';
  if (str(m.author)) record.extras.push(['Author', str(m.author)]);
  if (str(m.publishedAt)) record.extras.push(['Published', str(m.publishedAt)]);
  const highlight = highlights.get(str(m.slug)) ?? highlights.get(str(m.id));
  if (highlight) record.extras.push(['Highlights', highlight]);
  else if (highlightsLeftOut.has(str(m.slug)) || highlightsLeftOut.has(str(m.id))) {
    record.notice = 'Imported without its highlights: the archive holds more than 50 million characters of them';
  }
  return record;
}

export async function* parseJson(
  chunks: AsyncIterable<Buffer | string>,
  format: JsonFormat,
): AsyncGenerator<ParsedItem> {
  if (format === 'linkwise') {
    let vaultSeen = false;
    for await (const { path, value } of pickJson(
      chunks,
      (p) => (p.length === 1 && p[0] === 'vault') || (p.length === 2 && p[0] === 'links'),
    )) {
      if (path[0] === 'vault') {
        vaultSeen = true;
        const vault = value === null ? null : VaultKeyMaterialSchema.safeParse(value);
        if (vault && !vault.success) throw new ImportFileError('The export’s vault key material is malformed.');
        yield { vault: vault ? vault.data : null };
      } else {
        if (!vaultSeen) {
          vaultSeen = true;
          yield { vault: null };
        }
        yield { record: linkwiseRecord(value) };
      }
    }
    return;
  }
  if (format === 'karakeep') {
    for await (const { value } of pickJson(chunks, (p) => p.length === 2 && p[0] === 'bookmarks')) {
      yield { record: karakeepRecord(value) };
    }
    return;
  }
  if (format === 'omnivore') {
    for await (const { value } of pickJson(chunks, (p) => p.length === 1)) {
      yield { record: omnivoreRecord(value, new Map()) };
    }
    return;
  }
  throw new Error(`parseJson cannot read ${format} in one pass`);
}

/**
 * Linkwarden in two passes over the file: the collection tree first (names and parents only, each
 * collection's links skipped), then the links one at a time with their folder path.
 */
export async function* parseLinkwarden(open: () => AsyncIterable<Buffer | string>): AsyncGenerator<ParsedItem> {
  const collections = new Map<string, Collection>();
  const fields = new Map<number, Obj>();
  try {
    for await (const { path, value } of pickJson(
      open(),
      (p) => p.length === 3 && p[0] === 'collections' && (p[2] === 'id' || p[2] === 'name' || p[2] === 'parentId'),
    )) {
      const index = path[1] as number;
      fields.set(index, { ...fields.get(index), [path[2] as string]: value });
    }
  } catch (error) {
    // A file cut short (the start of a big backup, as the preview is sent) still yields the links
    // before the cut; the links pass below reaches the same cut and refuses a truly truncated file.
    if (!(error instanceof ImportFileError) || fields.size === 0) throw error;
  }
  const idByIndex = new Map<number, string>();
  for (const [index, f] of fields) {
    const id = str(f.id);
    idByIndex.set(index, id);
    collections.set(id, { name: str(f.name), parentId: str(f.parentId) || null });
  }
  if (collections.size === 0) throw new ImportFileError('This Linkwarden backup holds no collections.');
  for await (const { path, value } of pickJson(
    open(),
    (p) => p.length === 4 && p[0] === 'collections' && p[2] === 'links',
  )) {
    yield { record: linkwardenRecord(value, collections, idByIndex.get(path[1] as number) ?? '') };
  }
}
