import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ImportFileError } from './record.js';

/** More uncompressed bytes than this in one archive is a ZIP bomb, not an export. */
const MAX_UNZIPPED_BYTES = 4 * 1024 ** 3;

/**
 * More files than this in one archive is no export either (Omnivore's holds about three a link:
 * 100,000 links fit), and listing them costs the server time on every pass over the archive.
 */
const MAX_ZIP_ENTRIES = 400_000;

function open(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (error, zip) => {
      if (error) reject(new ImportFileError('The ZIP file is damaged or cut short.'));
      else resolve(zip);
    });
  });
}

/** The names of a ZIP's files, in their stored order (yauzl reads the central directory only). */
export async function zipNames(file: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of zipEntries(file, () => false)) names.push(entry.name);
  return names;
}

/**
 * A ZIP's files one at a time (yauzl, the archive read from disk on demand); `read` picks the
 * entries whose contents are streamed, the others are listed with `stream` null.
 */
export async function* zipEntries(
  file: string,
  read: (name: string) => boolean,
  maxEntries = MAX_ZIP_ENTRIES,
): AsyncGenerator<{ name: string; stream: Readable | null }> {
  const zip = await open(file);
  let unzipped = 0;
  let entries = 0;
  try {
    for (;;) {
      if (++entries > maxEntries) {
        throw new ImportFileError(
          `The ZIP file holds more than ${maxEntries.toLocaleString('en-US')} files: no export is that large.`,
        );
      }
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => done(resolve, e);
        const onEnd = () => done(resolve, null);
        const onError = () => done(reject, new ImportFileError('The ZIP file is damaged or cut short.'));
        const done = <T>(fn: (v: T) => void, v: T) => {
          zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
          fn(v);
        };
        zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
        zip.readEntry();
      });
      if (!entry) return;
      if (entry.fileName.endsWith('/') || !read(entry.fileName)) {
        yield { name: entry.fileName, stream: null };
        continue;
      }
      unzipped += entry.uncompressedSize;
      if (unzipped > MAX_UNZIPPED_BYTES) throw new ImportFileError('The ZIP file unpacks to more than 4 GB.');
      const stream = await new Promise<Readable>((resolve, reject) => {
        zip.openReadStream(entry, (error, s) => {
          if (error) reject(new ImportFileError('The ZIP file is damaged or cut short.'));
          else resolve(s);
        });
      });
      const guarded = stream.on('error', () => undefined);
      yield { name: entry.fileName, stream: guarded };
      // The consumer may stop early: drain what it left so the next entry can be read.
      if (!stream.readableEnded) {
        stream.resume();
        await new Promise<void>((resolve) => stream.once('close', resolve).once('end', resolve));
      }
    }
  } finally {
    zip.close();
  }
}

/** Wraps a ZIP entry's stream so a damaged entry surfaces as a clear error. */
export async function* entryChunks(stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch {
    throw new ImportFileError('The ZIP file is damaged or cut short.');
  }
}
