import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Import } from '@linkwise/contract';
import yazl from 'yazl';

export const fixtures = fileURLToPath(new URL('./fixtures/imports/', import.meta.url));
export const fixture = (name: string): Buffer => readFileSync(path.join(fixtures, name));

/** A ZIP archive of the given files (yazl), built the way each service's export is laid out. */
export function zip(files: Record<string, Buffer | string>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    archive.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  }
  archive.end();
  const parts: Buffer[] = [];
  return new Promise((resolve, reject) => {
    archive.outputStream.on('data', (c: Buffer) => parts.push(c));
    archive.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    archive.outputStream.on('error', reject);
  });
}

/** Posts a file as the import screen does: options first, then the file. */
export async function upload(
  baseUrl: string,
  token: string,
  file: Buffer | string,
  fields: Record<string, string> = {},
  route = '/api/import',
  name = 'bookmarks.html',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([typeof file === 'string' ? file : new Uint8Array(file)]), name);
  const response = await fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export async function getImport(baseUrl: string, token: string, id: string): Promise<Import> {
  const response = await fetch(`${baseUrl}/api/import/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as Import;
}

/** Polls an import until it has finished (done, failed or canceled). */
export async function finished(baseUrl: string, token: string, id: string, timeoutMs = 60_000): Promise<Import> {
  for (let i = 0; i < timeoutMs / 100; i++) {
    const current = await getImport(baseUrl, token, id);
    if (current.status === 'done' || current.status === 'failed' || current.status === 'canceled') return current;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`import ${id} did not finish`);
}

/** Uploads a file and waits for its import to finish. */
export async function importFile(
  baseUrl: string,
  token: string,
  file: Buffer | string,
  fields: Record<string, string> = {},
): Promise<Import> {
  const { status, body } = await upload(baseUrl, token, file, fields);
  if (status !== 202) throw new Error(`upload answered ${status}: ${JSON.stringify(body)}`);
  return finished(baseUrl, token, String(body.id));
}

/** A Netscape file of `n` links, one folder per hundred. */
export function netscapeFile(n: number, prefix = 'https://bulk.example.com/item/'): string {
  const lines = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<TITLE>Bookmarks</TITLE>', '<H1>Bookmarks</H1>', '<DL><p>'];
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) lines.push(`  <DT><H3>Folder ${i / 100}</H3>`, '  <DL><p>');
    lines.push(
      `    <DT><A HREF="${prefix}${i}" ADD_DATE="${1600000000 + i}" TAGS="bulk,t${i % 7}">Item number ${i}</A>`,
    );
    if (i % 100 === 99 || i === n - 1) lines.push('  </DL><p>');
  }
  lines.push('</DL><p>');
  return lines.join('\n');
}
