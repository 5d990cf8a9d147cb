import { WorkerClient, workerFile } from '../../lib/worker-client.js';

/** What a page says about itself. Empty strings never appear: a missing fact is null. */
export interface PageFacts {
  title: string | null;
  description: string | null;
  /** Canonical URL (absolute). */
  url: string | null;
  favicon: string | null;
  image: string | null;
  lang: string | null;
  publisher: string | null;
  author: string | null;
  /** ISO-8601. */
  date: string | null;
  /** Readable text of the main content (Readability), whitespace condensed. */
  text: string;
  // What the page says about its own kind. Optional: facts built before these existed, or from a URL
  // alone, have none.
  /** `og:type` as written, lower case (`article`, `video.movie`, `product`). */
  ogType?: string | null;
  /** schema.org types of its JSON-LD nodes and microdata items, without the vocabulary prefix (`Recipe`). */
  schemaTypes?: string[];
  /** `article:section` (or JSON-LD `articleSection`): the publisher's section, e.g. `Business`. */
  section?: string | null;
  /** `keywords` / `article:tag` meta values, at most 20. */
  keywords?: string[];
}

/** A readable title from the URL alone: the last path segment (PDF, image, plain text) or the host. */
export function titleFromUrl(input: string): string {
  const url = new URL(input);
  const raw = url.pathname.split('/').filter(Boolean).at(-1) ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A stray `%` (report-100%.pdf) is kept as written: the URL parser lets it through.
    decoded = raw;
  }
  const segment = decoded
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[-_+]+/g, ' ')
    .trim();
  const host = url.hostname.replace(/^www\./, '');
  return segment ? `${segment.charAt(0).toUpperCase()}${segment.slice(1)} (${host})` : host;
}

/** Extraction in a worker thread, so large pages never stall the event loop. */
export class WorkerExtractor {
  private readonly worker = new WorkerClient<{ html: string; url: string }, PageFacts>(
    workerFile('extract', import.meta.url),
  );

  extract(html: string, url: string): Promise<PageFacts> {
    return this.worker.call({ html, url });
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
