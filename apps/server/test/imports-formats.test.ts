import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../src/modules/imports/formats/csv.js';
import { parseNetscape } from '../src/modules/imports/formats/netscape.js';
import { mapRecord } from '../src/modules/imports/mapping.js';
import { zip } from './import-helpers.js';
import { parseLinkwarden } from '../src/modules/imports/formats/json.js';
import { readImportFile } from '../src/modules/imports/formats/read.js';
import { zipEntries } from '../src/modules/imports/formats/zip.js';
import {
  blankRecord,
  ImportFileError,
  type ImportRecord,
  type ParsedItem,
} from '../src/modules/imports/formats/record.js';

/** The records a parser yields until it ends or throws, and what it threw. */
async function collect(items: AsyncIterable<ParsedItem>): Promise<{ records: ImportRecord[]; error: unknown }> {
  const records: ImportRecord[] = [];
  try {
    for await (const item of items) if ('record' in item) records.push(item.record);
  } catch (error) {
    return { records, error };
  }
  return { records, error: null };
}

/** The text as a stream of `size`-byte chunks, as a file is read. */
function chunksOf(text: string, size = 1024): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

describe('Linkwarden backups', () => {
  const backup = JSON.stringify({
    id: 1,
    collections: [0, 1].map((c) => ({
      id: c + 1,
      name: `Collection ${c}`,
      parentId: null,
      links: Array.from({ length: 50 }, (_, i) => ({
        name: `Link ${c}-${i}`,
        url: `https://example.com/${c}/${i}`,
        collectionId: c + 1,
        tags: [],
      })),
    })),
  });

  it('yields the links before the cut of a file cut short (the preview is sent only its start), then refuses it', async () => {
    const cut = backup.slice(0, Math.floor(backup.length * 0.75));
    const { records, error } = await collect(parseLinkwarden(() => chunksOf(cut)));
    expect(records.length).toBeGreaterThan(20);
    expect(records[0]).toMatchObject({ url: 'https://example.com/0/0', title: 'Link 0-0', folders: ['Collection 0'] });
    expect(error).toBeInstanceOf(ImportFileError);
  });

  it('reads a whole backup', async () => {
    const { records, error } = await collect(parseLinkwarden(() => chunksOf(backup)));
    expect(error).toBeNull();
    expect(records).toHaveLength(100);
    expect(records[99]).toMatchObject({ folders: ['Collection 1'] });
  });
});

describe('Omnivore exports', () => {
  it('keeps highlights in non-Latin scripts whole, however the archive chunks them', async () => {
    const highlight = '漢字かな交じり文'.repeat(1125); // 9,000 characters, 27 kB: several inflate chunks
    const archive = await zip({
      'metadata_0_to_1.json': JSON.stringify([
        { id: 'a', slug: 'cjk', title: 'CJK', url: 'https://example.com/cjk', state: 'Succeeded', labels: [] },
      ]),
      'highlights/cjk.md': `> ${highlight}\n`,
    });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'linkwise-omnivore-')), 'export.zip');
    writeFileSync(file, archive);
    const { records, error } = await collect(readImportFile(file, 'omnivore'));
    expect(error).toBeNull();
    expect(records[0]!.extras).toEqual([['Highlights', `> ${highlight}`]]);
  });

  it('holds highlights within a budget, says which links lost theirs, and reads none for a count or a preview', async () => {
    // 5,000 highlights of 10,000 characters fill the 50 million; the link's own comes after them.
    const archive = await zip({
      'metadata_0_to_1.json': JSON.stringify([
        { id: 'a', slug: 'late', title: 'Late', url: 'https://example.com/late', state: 'Succeeded', labels: [] },
        { id: 'b', slug: 'filler-7', title: 'Early', url: 'https://example.com/early', state: 'Succeeded', labels: [] },
      ]),
      ...Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`highlights/filler-${i}.md`, 'a'.repeat(10_000)])),
      'highlights/late.md': '> Read me',
    });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'linkwise-omnivore-')), 'export.zip');
    writeFileSync(file, archive);
    const { records, error } = await collect(readImportFile(file, 'omnivore'));
    expect(error).toBeNull();
    expect(records.map((r) => [r.url, r.notice ?? null, r.extras.length])).toEqual([
      [
        'https://example.com/late',
        'Imported without its highlights: the archive holds more than 50 million characters of them',
        0,
      ],
      ['https://example.com/early', null, 1],
    ]);
    const quick = await collect(readImportFile(file, 'omnivore', { highlights: false }));
    expect(quick.records.map((r) => [r.url, r.notice ?? null, r.extras])).toEqual([
      ['https://example.com/late', null, []],
      ['https://example.com/early', null, []],
    ]);
  });
});

describe('ZIP archives', () => {
  it('refuses one holding more files than any export', async () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.csv`, '']));
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'linkwise-zip-')), 'many.zip');
    writeFileSync(file, await zip(many));
    const names: string[] = [];
    const error = await (async () => {
      for await (const entry of zipEntries(file, () => false, 10)) names.push(entry.name);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toBe('The ZIP file holds more than 10 files: no export is that large.');
    expect(names).toHaveLength(10);
  });
});

describe('mapping', () => {
  it('reports notes cut at the limit: what the notes carried besides the note is not lost without a word', () => {
    const record = blankRecord('https://example.com/long');
    record.notes = 'n'.repeat(19_000);
    record.extras = [['Highlights', 'h'.repeat(5_000)]];
    const mapped = mapRecord(record, 'innermost', Date.now());
    expect('link' in mapped && mapped.link.notes.length).toBe(20_000);
    expect('link' in mapped && mapped.partial).toBe(
      'Its notes were cut to 20,000 of their 24,014 characters (with the values kept in them)',
    );
  });

  it('reads an address without a scheme as https, as the add dialog does, and still refuses other schemes', () => {
    const url = (address: string) => {
      const mapped = mapRecord(blankRecord(address), 'innermost', Date.now());
      return 'link' in mapped ? mapped.link.url : mapped.problem;
    };
    expect([url('www.example.com/g4'), url('example.net'), url('ftp://example.org/x'), url('not an address')]).toEqual([
      'https://www.example.com/g4',
      'https://example.net',
      'Not a web address (ftp: links are not imported)',
      'Not a valid web address',
    ]);
  });

  it('reports nothing for notes within the limit', () => {
    const record = blankRecord('https://example.com/short');
    record.notes = 'n'.repeat(100);
    const mapped = mapRecord(record, 'innermost', Date.now());
    expect('link' in mapped && mapped.partial).toBeUndefined();
  });
});

describe('Netscape bookmark files', () => {
  it("keeps a folder's description (Firefox writes one after the folder) off the bookmark before the folder", async () => {
    const file = [
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
      '<H1>Bookmarks Menu</H1>',
      '<DL><p>',
      '    <DT><A HREF="https://example.com/a">A</A>',
      '<DD>About A',
      '    <DT><H3>Reading</H3>',
      '<DD>A folder description',
      '    <DL><p>',
      '        <DT><A HREF="https://example.com/b">B</A>',
      '<DD>About B',
      '    </DL><p>',
      '</DL>',
    ].join('\n');
    const { records, error } = await collect(parseNetscape(chunksOf(file, 16)));
    expect(error).toBeNull();
    expect(records.map((r) => [r.url, r.description, r.folders])).toEqual([
      ['https://example.com/a', 'About A', []],
      ['https://example.com/b', 'About B', ['Reading']],
    ]);
  });

  it("drops browsers' own outermost folders in any language, and keeps the user's folders of those names", async () => {
    const file = [
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
      '<DL><p>',
      // Chrome in German: the toolbar is marked, "Other bookmarks" only named.
      '<DT><H3 ADD_DATE="1" PERSONAL_TOOLBAR_FOLDER="true">Lesezeichenleiste</H3>',
      '<DL><p><DT><A HREF="https://example.com/bar">Bar</A>',
      '  <DT><H3>Favorites</H3><DL><p><DT><A HREF="https://example.com/mine">Mine</A></DL><p>',
      '</DL><p>',
      '<DT><H3>Weitere Lesezeichen</H3>',
      '<DL><p><DT><H3>Dev</H3><DL><p><DT><A HREF="https://example.com/dev">Dev</A></DL><p></DL><p>',
      // Firefox: the unfiled folder is marked, whatever it is called.
      '<DT><H3 UNFILED_BOOKMARKS_FOLDER="true">Andere</H3>',
      '<DL><p><DT><A HREF="https://example.com/other">Other</A></DL><p>',
      // Safari: its Reading List is to be read later.
      '<DT><H3 id="com.apple.ReadingList">Reading List</H3>',
      '<DL><p><DT><A HREF="https://example.com/later">Later</A></DL><p>',
      '<DT><H3>Recipes</H3><DL><p><DT><A HREF="https://example.com/soup">Soup</A></DL><p>',
      '</DL>',
    ].join('\n');
    const { records, error } = await collect(parseNetscape(chunksOf(file, 64)));
    expect(error).toBeNull();
    expect(records.map((r) => [r.url.split('/').pop(), r.folders, r.isReadLater])).toEqual([
      ['bar', [], false],
      ['mine', ['Favorites'], false],
      ['dev', ['Dev'], false],
      ['other', [], false],
      ['later', [], true],
      ['soup', ['Recipes'], false],
    ]);
  });
});

describe('Netscape bookmark files cut short', () => {
  const head = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<DL><p>', '<DT><A HREF="https://example.com/1">One</A>'];

  it('yields what comes before the cut, then refuses the file (the import writes nothing)', async () => {
    const file = [...head, '<DT><A HREF="https://example.com/2">Two, cut sh'].join('\n');
    const { records, error } = await collect(parseNetscape(chunksOf(file, 32)));
    expect(records.map((r) => r.title)).toEqual(['One']);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toBe(
      'The bookmarks file is cut short: it ends in the middle of a bookmark. Export it again and import the whole file.',
    );
  });

  it('refuses a file that stops inside a tag, which the parser itself drops without a word', async () => {
    for (const cut of ['<DT><A HRE', '<DT><A HREF="https://example.com/2', '</DL', '<DT><']) {
      const { records, error } = await collect(parseNetscape(chunksOf([...head, cut].join('\n'), 32)));
      expect(
        records.map((r) => r.title),
        cut,
      ).toEqual(['One']);
      expect(error, cut).toBeInstanceOf(ImportFileError);
    }
  });

  it('reads a file whose lists were left open after a closed bookmark, and a bookmark closed by its list', async () => {
    const open = await collect(parseNetscape(chunksOf(head.join('\n'))));
    expect([open.records.length, open.error]).toEqual([1, null]);
    const unclosed = await collect(
      parseNetscape(chunksOf([...head, '<DT><A HREF="https://example.com/2">Two', '</DL><p>'].join('\n'))),
    );
    expect([unclosed.records.map((r) => r.title), unclosed.error]).toEqual([['One', 'Two'], null]);
  });
});

describe('CSV categories', () => {
  it("keeps a category named like a browser folder, and Raindrop's Unsorted is no collection", () => {
    const own = blankRecord('https://example.com/fav');
    own.folders = ['Favorites'];
    const mapped = mapRecord(own, 'innermost', Date.now());
    expect('link' in mapped && mapped.link.category).toBe('Favorites');
  });

  it("reads Instapaper's own folders as categories still to read, its built-in ones as states", async () => {
    const file = [
      'URL,Title,Selection,Folder,Timestamp',
      'https://example.com/u,U,,Unread,1700000000',
      'https://example.com/a,A,,Archive,1700000000',
      'https://example.com/r,R,,Recipes,1700000000',
    ].join('\n');
    const { records } = await collect(parseCsv(chunksOf(file), 'instapaper'));
    expect(records.map((r) => [r.folders, r.isReadLater, r.isRead])).toEqual([
      [[], true, false],
      [[], false, true],
      [['Recipes'], true, false],
    ]);
  });

  it("reads Raindrop's Unsorted as no collection, and its nested collections as a path", async () => {
    const file = [
      'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite',
      '1,A,,,https://example.com/a,Unsorted,,2024-01-01T00:00:00.000Z,,,false',
      '2,B,,,https://example.com/b,Work / Papers,,2024-01-01T00:00:00.000Z,,,false',
    ].join('\n');
    const { records } = await collect(parseCsv(chunksOf(file), 'raindrop'));
    expect(records.map((r) => r.folders)).toEqual([[], ['Work', 'Papers']]);
  });
});

describe('CSV rows longer than the header', () => {
  it('keeps the cells past the last column in notes and says so in the report', async () => {
    // A title with a comma the file left unquoted, a row of the header's length, and trailing empty cells.
    const file = [
      'url,title,tags',
      'https://example.com/a,Cats,dogs and mice,pets',
      'https://example.com/b,Birds,sky',
      'https://example.com/c,Fish,sea,,',
    ].join('\n');
    const { records, error } = await collect(parseCsv(chunksOf(file, 7), 'csv'));
    expect(error).toBeNull();
    expect(records.map((r) => [r.title, r.tags])).toEqual([
      ['Cats', ['dogs and mice']],
      ['Birds', ['sky']],
      ['Fish', ['sea']],
    ]);
    const mapped = records.map((r) => mapRecord(r, 'innermost', Date.now()));
    expect(mapped.map((m) => 'link' in m && m.link.notes)).toEqual(['Cells past the last column: pets', '', '']);
    expect(mapped.map((m) => 'link' in m && m.partial)).toEqual([
      'Its row had 1 cell past the last column (an unquoted comma?), kept in its notes',
      undefined,
      undefined,
    ]);
  });

  it("keeps a Pocket row's cells past the last column too, the named columns read as before", async () => {
    const file = ['title,url,time_added,tags,status', 'A,https://example.com/a,1700000000,x|y,unread,stray, more'].join(
      '\n',
    );
    const { records } = await collect(parseCsv(chunksOf(file), 'pocket'));
    expect(records[0]).toMatchObject({ title: 'A', tags: ['x', 'y'], isReadLater: true });
    expect(records[0]!.extras).toContainEqual(['Cells past the last column', 'stray | more']);
    expect(records[0]!.notice).toBe('Its row had 2 cells past the last column (an unquoted comma?), kept in its notes');
  });
});
