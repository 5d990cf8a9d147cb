import { z } from 'zod';
import { TimestampSchema } from './common.js';

/** Every file format an import reads; `auto` detects it from the content. */
export const ImportFormats = [
  'netscape',
  'pocket',
  'raindrop',
  'instapaper',
  'omnivore',
  'linkwarden',
  'karakeep',
  'linkwise',
  'csv',
  'urls',
] as const;
export const ImportFormatSchema = z.enum(ImportFormats);
export type ImportFormat = z.infer<typeof ImportFormatSchema>;

/** How each format is named on screen and in reports. */
export const ImportFormatNames: Record<ImportFormat, string> = {
  netscape: 'Browser bookmarks (Netscape HTML)',
  pocket: 'Pocket',
  raindrop: 'Raindrop.io CSV',
  instapaper: 'Instapaper CSV',
  omnivore: 'Omnivore export',
  linkwarden: 'Linkwarden backup',
  karakeep: 'Karakeep export',
  linkwise: 'Linkwise export',
  csv: 'CSV with a url column (Linkwise CSV export, spreadsheets)',
  urls: 'A list of addresses, one per line',
};

/** Which folder becomes the category: the innermost (default), the top one, or none (folders become tags). */
export const CategoryFromSchema = z.enum(['innermost', 'top', 'none']);
export type CategoryFrom = z.infer<typeof CategoryFromSchema>;

/** A URL already saved: skip it (default), or fill the saved link's empty fields from the file. */
export const DuplicateModeSchema = z.enum(['skip', 'fill-empty']);
export type DuplicateMode = z.infer<typeof DuplicateModeSchema>;

/** The form fields of `POST /api/import` besides the file. */
export const ImportOptionsSchema = z.object({
  format: z.enum(['auto', ...ImportFormats], { error: 'Unknown format' }).default('auto'),
  categoryFrom: CategoryFromSchema.default('innermost'),
  duplicates: DuplicateModeSchema.default('skip'),
});
export type ImportOptions = z.infer<typeof ImportOptionsSchema>;

export const ImportStatusSchema = z.enum(['queued', 'running', 'done', 'failed', 'canceled']);
export type ImportStatus = z.infer<typeof ImportStatusSchema>;

export const ImportIssueSchema = z.object({
  index: z.number().int(),
  /** `partial`: imported, but something of it could not be (credentials sealed with another vault's key). */
  kind: z.enum(['duplicate', 'skipped', 'failed', 'partial']),
  url: z.string(),
  reason: z.string(),
});
export type ImportIssue = z.infer<typeof ImportIssueSchema>;

export const ImportSchema = z.object({
  id: z.string(),
  status: ImportStatusSchema,
  format: ImportFormatSchema,
  fileName: z.string(),
  options: z.object({ categoryFrom: CategoryFromSchema, duplicates: DuplicateModeSchema }),
  /** Items in the file; null until the whole file has been read once. */
  total: z.number().int().nullable(),
  processed: z.number().int(),
  created: z.number().int(),
  /** Saved links whose empty fields were filled (duplicate mode `fill-empty`). */
  updated: z.number().int(),
  duplicates: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** Of the links created, how many page analyses have finished. */
  analysed: z.number().int(),
  /** Why a failed import stopped. */
  message: z.string().nullable(),
  /** The first items skipped or failed (all of them through the report download). */
  errors: z.array(ImportIssueSchema),
  createdAt: TimestampSchema,
  finishedAt: TimestampSchema.nullable(),
});
export type Import = z.infer<typeof ImportSchema>;

export const ImportAcceptedSchema = z.object({
  id: z.string(),
  status: ImportStatusSchema,
  format: ImportFormatSchema,
});
export const ImportListResponseSchema = z.object({ data: z.array(ImportSchema) });

/** One item of a file as it would be saved: the preview's row. */
export const ImportPreviewRowSchema = z.object({
  url: z.string(),
  title: z.string(),
  category: z.string().nullable(),
  tags: z.array(z.string()),
  description: z.string(),
  notes: z.string(),
  isRead: z.boolean(),
  isReadLater: z.boolean(),
  createdAt: TimestampSchema.nullable(),
  /** Why the import would skip this item, when it would. */
  problem: z.string().nullable(),
  /** Where the item's address already is: in the user's library, or earlier in the file. */
  duplicate: z.enum(['library', 'file']).nullable(),
});
export type ImportPreviewRow = z.infer<typeof ImportPreviewRowSchema>;

export const ImportPreviewSchema = z.object({
  format: ImportFormatSchema,
  formatName: z.string(),
  rows: z.array(ImportPreviewRowSchema),
  /** Whether the file holds folders or collections (the category choice matters). */
  hasFolders: z.boolean(),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const ExportFormatSchema = z.enum(['json', 'html', 'csv']);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;
export const ExportQuerySchema = z.object({
  format: ExportFormatSchema.default('json'),
});

export const BackupSchema = z.object({
  id: z.string(),
  createdAt: TimestampSchema,
  bytes: z.number().int(),
  links: z.number().int().nullable(),
});
export type Backup = z.infer<typeof BackupSchema>;
export const BackupListResponseSchema = z.object({
  data: z.array(BackupSchema),
  /** Whether automatic backups run for this user (Pro), and how often and how many are kept. */
  enabled: z.boolean(),
  everyDays: z.number().int(),
  keep: z.number().int(),
});
export type BackupListResponse = z.infer<typeof BackupListResponseSchema>;

/** The version of Linkwise's JSON export; an import refuses a newer one it cannot read. */
export const LINKWISE_EXPORT_VERSION = 1;
