import { IdParamsSchema } from './common.js';
import { defineRoute } from './route.js';
import {
  BackupListResponseSchema,
  ExportQuerySchema,
  ImportAcceptedSchema,
  ImportListResponseSchema,
  ImportPreviewSchema,
  ImportSchema,
} from './imports.js';

/**
 * Import, export and backups. The multipart upload (`POST /api/import`, `POST /api/import/preview`)
 * and the file downloads are registered by the server directly (they are not JSON); they are listed
 * here for the OpenAPI document and typed client where their answers are JSON.
 */
export const importRoutes = {
  startImport: defineRoute({
    method: 'POST',
    path: '/api/import',
    auth: true,
    status: 202,
    tag: 'import',
    summary:
      'multipart/form-data: `format`, `categoryFrom`, `duplicates` (before the file, or in the query), then `file`. 400 UNSUPPORTED_FORMAT for a file that is no export Linkwise reads; 413 over IMPORT_MAX_BYTES; 409 INVALID_STATE while 3 of the account’s imports wait or run',
    response: ImportAcceptedSchema,
  }),
  previewImport: defineRoute({
    method: 'POST',
    path: '/api/import/preview',
    auth: true,
    status: 200,
    tag: 'import',
    summary:
      'multipart/form-data like POST /api/import (the start of a big file is enough): the detected format and the first items as they would be saved',
    response: ImportPreviewSchema,
  }),
  importReport: defineRoute({
    method: 'GET',
    path: '/api/import/:id/report',
    auth: true,
    status: 200,
    tag: 'import',
    summary: 'Every skipped, duplicate or failed item with its reason, as a CSV download',
    params: IdParamsSchema,
  }),
  exportLinks: defineRoute({
    method: 'GET',
    path: '/api/export',
    auth: true,
    status: 200,
    tag: 'import',
    summary: 'A streamed download of every link: json (lossless, re-importable), html (Netscape bookmarks) or csv',
    query: ExportQuerySchema,
  }),
  downloadBackup: defineRoute({
    method: 'GET',
    path: '/api/backups/:id',
    auth: true,
    status: 200,
    tag: 'import',
    summary: 'One automatic backup (a Linkwise JSON export), as a download',
    params: IdParamsSchema,
  }),
  listImports: defineRoute({
    method: 'GET',
    path: '/api/import',
    auth: true,
    status: 200,
    tag: 'import',
    summary: "The user's imports, newest first",
    response: ImportListResponseSchema,
  }),
  getImport: defineRoute({
    method: 'GET',
    path: '/api/import/:id',
    auth: true,
    status: 200,
    tag: 'import',
    summary: 'One import: status, counts, the first skipped or failed items',
    params: IdParamsSchema,
    response: ImportSchema,
  }),
  cancelImport: defineRoute({
    method: 'DELETE',
    path: '/api/import/:id',
    auth: true,
    status: 204,
    tag: 'import',
    summary: 'Cancel a queued or running import (links already created stay)',
    params: IdParamsSchema,
  }),
  listBackups: defineRoute({
    method: 'GET',
    path: '/api/backups',
    auth: true,
    status: 200,
    tag: 'import',
    summary: "The user's automatic backups (Pro), newest first",
    response: BackupListResponseSchema,
  }),
} as const;
