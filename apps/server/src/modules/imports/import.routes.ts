import multipart from '@fastify/multipart';
import { ImportOptionsSchema, routes, type ImportOptions } from '@linkwise/contract';
import { stringify } from 'csv-stringify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { AppError, validationError } from '../../errors.js';
import type { AddRoute } from '../../http/route-adapter.js';
import type { BackupService } from './backup.service.js';
import type { ExportService } from './export.service.js';
import { UploadTooLarge, type ImportService } from './import.service.js';

interface Upload {
  file: Readable & { truncated?: boolean };
  fileName: string;
  truncated: () => boolean;
  options: ImportOptions;
}

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/**
 * A large download, gzipped here at a fast level when the client accepts it: the compression
 * plugin would otherwise stream it through brotli at its default (slowest) quality, which took most
 * of a 100,000-link export's time (bench/RESULTS.md).
 */
function sendDownload(request: FastifyRequest, reply: FastifyReply, body: Readable): FastifyReply {
  void reply.header('vary', 'accept-encoding');
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    void reply.header('content-encoding', 'gzip');
    return reply.send(body.pipe(createGzip({ level: 4 })));
  }
  return reply.send(body);
}

/** The multipart form: options (fields before the file, or the query string), then the file. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw validationError({ file: 'Send the file as multipart/form-data in a field named "file"' });
  }
  const data = await request.file();
  if (!data) throw validationError({ file: 'Choose a file to import' });
  const fields: Record<string, unknown> = { ...(request.query as Record<string, unknown>) };
  for (const [name, field] of Object.entries(data.fields)) {
    const one = Array.isArray(field) ? field[0] : field;
    if (one && one.type === 'field') fields[name] = one.value;
  }
  const parsed = ImportOptionsSchema.safeParse(fields);
  if (!parsed.success) {
    data.file.resume();
    const issue = parsed.error.issues[0];
    throw validationError({ [String(issue?.path[0] ?? 'format')]: issue?.message ?? 'Invalid option' });
  }
  return { file: data.file, fileName: data.filename, truncated: () => data.file.truncated, options: parsed.data };
}

function tooLarge(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: string }).code;
  if (error instanceof UploadTooLarge || code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the import limit of ${megabytes(maxBytes)} MB.`);
  }
  return error;
}

/** Import, export and backup routes. */
export async function importRoutes(
  app: FastifyInstance,
  route: AddRoute,
  deps: { imports: ImportService; exports: ExportService; backups: BackupService; maxBytes: number },
): Promise<void> {
  const { imports, exports, backups, maxBytes } = deps;
  // Uploads stream to disk; only the file field may be large, and only this route reads one.
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12 } });

  route(
    routes.startImport,
    async ({ actor, request }) => {
      const upload = await readUpload(request);
      try {
        return await imports.start(actor, upload, upload.options);
      } catch (error) {
        throw tooLarge(error, maxBytes);
      }
    },
    { rateLimitPerMinute: 20 },
  );

  route(
    routes.previewImport,
    async ({ actor, request }) => {
      const upload = await readUpload(request);
      try {
        return await imports.preview(actor, upload, upload.options);
      } catch (error) {
        throw tooLarge(error, maxBytes);
      }
    },
    { rateLimitPerMinute: 60 },
  );

  route(routes.listImports, ({ actor }) => imports.list(actor));
  route(routes.getImport, ({ actor, params }) => imports.get(actor, params.id));
  route(routes.cancelImport, ({ actor, params }) => imports.cancel(actor, params.id));

  route(routes.importReport, async ({ actor, params, request, reply }) => {
    const issues = imports.report(actor, params.id);
    // Reads the first page now, so a missing import is a 404 and not a broken download.
    const first = await issues.next();
    const rows = async function* () {
      if (!first.done) yield first.value;
      yield* issues;
    };
    const csv = Readable.from(rows()).pipe(
      stringify({
        header: true,
        bom: true,
        columns: ['index', 'kind', 'url', 'reason'],
        // 1-based item numbers; a cell a spreadsheet would run as a formula starts with an apostrophe.
        cast: { number: (n) => String(n + 1), string: (v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v) },
      }),
    );
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="linkwise-import-report-${params.id}.csv"`);
    return sendDownload(request, reply, csv) as never;
  });

  route(
    routes.exportLinks,
    ({ actor, query, request, reply }) => {
      void reply
        .header('content-type', exports.contentType(query.format))
        .header('content-disposition', `attachment; filename="${exports.fileName(query.format)}"`)
        .header('cache-control', 'no-store');
      return Promise.resolve(sendDownload(request, reply, exports.stream(actor.userId, query.format)) as never);
    },
    { rateLimitPerMinute: 10 },
  );

  route(routes.listBackups, ({ actor }) => backups.list(actor));
  route(routes.downloadBackup, async ({ actor, params, request, reply }) => {
    const backup = await backups.open(actor, params.id);
    void reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="linkwise-backup-${params.id}.json"`)
      .header('cache-control', 'no-store');
    return sendDownload(request, reply, backup) as never;
  });
}
