import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { modelFolders, type LocalModelSpec, type ModelFolderSpec } from './local-models.js';

/** Where a model's folder lives under MODELS_DIR: the hub's `<org>/<name>` layout. */
export function modelFolder(modelsDir: string, spec: Pick<ModelFolderSpec, 'repo'>): string {
  return path.join(modelsDir, ...spec.repo.split('/'));
}

/**
 * Read through one buffer (`buffer`, shared by a whole check): a stream's chunks stay behind as
 * garbage until V8's next full collection, about 30 MB at every start while the model loads.
 */
async function sha256File(file: string, buffer: Buffer): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(file, 'r');
  try {
    let read: number;
    do {
      ({ bytesRead: read } = await handle.read(buffer, 0, buffer.length, null));
      hash.update(buffer.subarray(0, read));
    } while (read > 0);
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/**
 * What is wrong with the model's folder, or null when every pinned file is there with its sha256.
 * Reads every file (about 130 MB for the default model); called once per start, not per request.
 */
export async function checkModelFolder(modelsDir: string, spec: LocalModelSpec): Promise<string | null> {
  const buffer = Buffer.allocUnsafe(1 << 20);
  for (const part of modelFolders(spec)) {
    const problem = await checkFolder(modelsDir, part, buffer);
    if (problem) return problem;
  }
  return null;
}

async function checkFolder(modelsDir: string, spec: ModelFolderSpec, buffer: Buffer): Promise<string | null> {
  const folder = modelFolder(modelsDir, spec);
  for (const [name, expected] of Object.entries(spec.files)) {
    const file = path.join(folder, name);
    const exists = await stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) return `${name} is missing in ${folder}`;
    const actual = await sha256File(file, buffer);
    if (actual !== expected) return `${name} in ${folder} has sha256 ${actual}, not the pinned ${expected}`;
  }
  return null;
}

export interface DownloadProgress {
  file: string;
  /** Bytes of every file so far, and in all when the hub announced every size (else null). */
  received: number;
  total: number | null;
}

/**
 * Downloads the model's pinned files from a hub (`<hub>/<org>/<name>/resolve/<revision>/<file>`)
 * into MODELS_DIR. Each file is written beside its place and moved there only when its sha256 is the
 * pinned one, so a broken or tampered download never becomes a folder the server loads.
 */
export async function downloadModel(
  hubUrl: string,
  modelsDir: string,
  spec: LocalModelSpec,
  onProgress: (p: DownloadProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const base = hubUrl.replace(/\/+$/, '');
  let received = 0;
  let total: number | null = 0;
  const files = modelFolders(spec).flatMap((part) =>
    Object.entries(part.files).map(([name, expected]) => ({ part, name, expected })),
  );
  for (const { part, name, expected } of files) {
    const folder = modelFolder(modelsDir, part);
    const target = path.join(folder, name);
    // Unique per download: several workers may fetch the same model into a shared folder at once.
    const partial = `${target}.${process.pid}-${Math.random().toString(36).slice(2)}.partial`;
    await mkdir(path.dirname(target), { recursive: true });
    const url = `${base}/${part.repo}/resolve/${encodeURIComponent(part.revision)}/${name}`;
    const response = await fetch(url, { redirect: 'follow', ...(signal && { signal }) });
    if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
    const length = Number(response.headers.get('content-length'));
    total = total !== null && Number.isFinite(length) && length > 0 ? total + length : null;
    const hash = createHash('sha256');
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        received += chunk.length;
        onProgress({ file: name, received, total });
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body), count, createWriteStream(partial));
      const actual = hash.digest('hex');
      if (actual !== expected) throw new Error(`${name} from ${url} has sha256 ${actual}, not the pinned ${expected}`);
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
  }
}
