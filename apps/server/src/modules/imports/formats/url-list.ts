import { isHttpUrl, withDefaultScheme } from '@linkwise/contract';
import { blankRecord, utf8Chunks, type ParsedItem } from './record.js';

/** The address a line starts with, and the rest of the line (a title, when there is one). */
function splitLine(line: string): { url: string; title: string } {
  const [url = '', ...rest] = line.trim().split(/\s+/);
  return { url, title: rest.join(' ') };
}

const isAddress = (text: string) => isHttpUrl(withDefaultScheme(text));

/**
 * A plain list of addresses, one per line (a note, a text file a script wrote), optionally each
 * followed by a title: most of its first lines that say something must be addresses.
 */
export function sniffUrlList(head: string): 'urls' | null {
  const lines = head
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    // The last line of the head may be cut.
    .slice(0, 20);
  if (lines.length === 0) return null;
  const addresses = lines.filter((l) => isAddress(splitLine(l).url)).length;
  return addresses >= Math.max(1, Math.ceil(lines.length * 0.6)) ? 'urls' : null;
}

/** Every line as an item: blank lines and `#` comments are skipped, anything else is reported if it is no address. */
export async function* parseUrlList(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<ParsedItem> {
  let rest = '';
  const lineItem = (raw: string): ParsedItem | null => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return null;
    const { url, title } = splitLine(line.replace(/^\uFEFF/, ''));
    const record = blankRecord(url);
    record.title = title;
    return { record };
  };
  for await (const text of utf8Chunks(chunks)) {
    const lines = (rest + text).split(/\r?\n/);
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const item = lineItem(line);
      if (item) yield item;
    }
  }
  const last = lineItem(rest);
  if (last) yield last;
}
