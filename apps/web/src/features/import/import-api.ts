import { ApiError, type ErrorBody, type Import, type ImportPreview } from '@linkwise/contract';
import { useAuth } from '../../lib/auth-store';

export interface ImportChoices {
  format: string;
  categoryFrom: 'innermost' | 'top' | 'none';
  duplicates: 'skip' | 'fill-empty';
}

/** The start of a big file is enough to preview; a ZIP needs its end (the directory), so it goes whole. */
const PREVIEW_BYTES = 512 * 1024;

const authHeader = (): Record<string, string> => {
  const token = useAuth.getState().token;
  return token ? { authorization: `Bearer ${token}` } : {};
};

async function isZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

function form(choices: ImportChoices, file: Blob, name: string): FormData {
  const data = new FormData();
  // Options before the file: the server reads the form as a stream.
  data.append('format', choices.format);
  data.append('categoryFrom', choices.categoryFrom);
  data.append('duplicates', choices.duplicates);
  data.append('file', file, name);
  return data;
}

function apiError(status: number, text: string): ApiError {
  let body: ErrorBody = { error: 'Something went wrong. Please try again.', code: 'INTERNAL' };
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    // keep the fallback
  }
  return new ApiError(status, body.error, body.code, body.details, undefined);
}

export async function previewImport(file: File, choices: ImportChoices): Promise<ImportPreview> {
  const part = (await isZip(file)) ? file : file.slice(0, PREVIEW_BYTES);
  const response = await fetch('/api/import/preview', {
    method: 'POST',
    headers: authHeader(),
    body: form(choices, part, file.name),
  });
  const text = await response.text();
  if (!response.ok) throw apiError(response.status, text);
  return JSON.parse(text) as ImportPreview;
}

/** Uploads with XMLHttpRequest, the one browser API that reports upload progress. */
export function startImport(
  file: File,
  choices: ImportChoices,
  onProgress: (fraction: number) => void,
): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/import');
    for (const [k, v] of Object.entries(authHeader())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 202) resolve(JSON.parse(xhr.responseText) as { id: string });
      else reject(apiError(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(apiError(0, ''));
    xhr.send(form(choices, file, file.name));
  });
}

export async function getImport(id: string): Promise<Import> {
  const response = await fetch(`/api/import/${encodeURIComponent(id)}`, { headers: authHeader() });
  const text = await response.text();
  if (!response.ok) throw apiError(response.status, text);
  return JSON.parse(text) as Import;
}

export async function cancelImport(id: string): Promise<void> {
  const response = await fetch(`/api/import/${encodeURIComponent(id)}`, { method: 'DELETE', headers: authHeader() });
  if (!response.ok) throw apiError(response.status, await response.text());
}

/** Fetches a download with the session's token and saves it under the server's file name. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const response = await fetch(path, { headers: authHeader() });
  if (!response.ok) throw apiError(response.status, await response.text());
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  saveBlob(await response.blob(), name);
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
