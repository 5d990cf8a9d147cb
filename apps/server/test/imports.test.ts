import type { ApiClient, Link } from '@linkwise/contract';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, raw, seed, startServer, upgrade, type TestServer } from './harness.js';
import { finished, fixture, importFile, netscapeFile, upload, zip } from './import-helpers.js';

async function allLinks(api: ApiClient): Promise<Link[]> {
  const out: Link[] = [];
  for (let page = 1; ; page++) {
    const { data } = await api.listLinks({ query: { limit: 100, page, sortBy: 'createdAt', sortOrder: 'asc' } });
    out.push(...data);
    if (data.length < 100) return out;
  }
}

const byUrl = (links: Link[]) => new Map(links.map((l) => [l.url, l]));
/** Vault key material as a browser makes it; `fill` tells one wrapped key from another. */
const keyMaterial = (fill: number) => ({
  version: 1 as const,
  kdf: { name: 'PBKDF2' as const, hash: 'SHA-256' as const, iterations: 600_000 },
  salt: Buffer.alloc(16, 1).toString('base64'),
  iv: Buffer.alloc(12, 2).toString('base64'),
  wrappedKey: Buffer.alloc(48, fill).toString('base64'),
});
const DAY_MS = 86_400_000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe.each(engines())('imports on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, { JOBS_ENABLED: 'true', BILLING: 'off', IMPORT_MAX_BYTES: String(1024 * 1024) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('imports a browser export: folders, tags, dates, to-read, descriptions, duplicates and unsafe links', async () => {
    const { api, token } = await server.signUp('netscape');
    const result = await importFile(server.url, token, fixture('chrome-bookmarks.html'));
    expect(result).toMatchObject({ status: 'done', format: 'netscape', total: 8, processed: 8 });
    expect(result).toMatchObject({ created: 5, duplicates: 1, skipped: 2, failed: 0 });
    const links = byUrl(await allLinks(api));
    expect(links.size).toBe(5);

    const bread = links.get('https://kitchen.example.org/bread')!;
    expect(bread).toMatchObject({
      title: 'Sourdough bread & starters',
      description: 'A slow, patient loaf.',
      tags: ['baking', 'Sourdough'],
      // "Bookmarks bar" is the browser's container, not a category.
      category: null,
      isReadLater: false,
      createdAt: iso(1600000000),
      updatedAt: iso(1650000000),
    });
    const paper = links.get('https://papers.example.com/attention?utm_source=feed')!;
    expect(paper).toMatchObject({ title: 'Attention is all you need', category: 'Research Papers', isReadLater: true });
    expect(paper.notes).toBe('Folder: Work / Research Papers');
    expect(links.get('https://docs.example.com/handbook')).toMatchObject({ category: 'Work', notes: '' });
    expect(links.get('https://top.example.com/')).toMatchObject({ category: null, createdAt: iso(1300000000) });
    // Markup and scripts are never stored, only the text around them.
    const safe = links.get('https://safe.example.net/page')!;
    expect(safe.title).toBe('Safe title');
    expect(safe.description).toBe('Described here');
    expect(safe.category).toBe(null);

    const report = (await (
      await fetch(`${server.url}/api/import/${result.id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as typeof result;
    expect(report.errors).toEqual([
      {
        index: 3,
        kind: 'skipped',
        url: 'javascript:alert(document.cookie)',
        reason: 'Not a web address (javascript: links are not imported)',
      },
      {
        index: 4,
        kind: 'skipped',
        url: 'data:text/html,<script>alert(1)</script>',
        reason: 'Not a web address (data: links are not imported)',
      },
      {
        index: 5,
        kind: 'duplicate',
        url: 'https://papers.example.com/attention',
        reason: 'Appears earlier in this file',
      },
    ]);
    const csv = await raw(server, 'GET', `/api/import/${result.id}/report`, { token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    expect(csv.text.replace(/^\uFEFF/, '').split('\n')[0]).toBe('index,kind,url,reason');
    expect(csv.text).toContain('6,duplicate,https://papers.example.com/attention,Appears earlier in this file');

    // Created at once and searchable by text before any analysis ran.
    const found = await api.listLinks({ query: { search: 'sourdough' } });
    expect(found.data.map((l) => l.url)).toEqual(['https://kitchen.example.org/bread']);
    const listed = await api.listImports();
    expect(listed.data[0]).toMatchObject({ id: result.id, status: 'done', created: 5 });
  });

  it('maps folders to the top folder, or to tags, as chosen', async () => {
    const top = await server.signUp('top');
    await importFile(server.url, top.token, fixture('chrome-bookmarks.html'), { categoryFrom: 'top' });
    const topLinks = byUrl(await allLinks(top.api));
    expect(topLinks.get('https://papers.example.com/attention?utm_source=feed')!.category).toBe('Work');

    const none = await server.signUp('none');
    await importFile(server.url, none.token, fixture('chrome-bookmarks.html'), { categoryFrom: 'none' });
    const noneLinks = byUrl(await allLinks(none.api));
    const paper = noneLinks.get('https://papers.example.com/attention?utm_source=feed')!;
    expect(paper.category).toBe(null);
    expect(paper.tags).toEqual(['Work', 'Research Papers']);
  });

  it('imports Pocket: the 2025 ZIP of CSV parts, a bare CSV part and the older ril_export.html', async () => {
    const zipped = await zip({ 'part_000000.csv': fixture('pocket-part_000000.csv') });
    const a = await server.signUp('pocketzip');
    const result = await importFile(server.url, a.token, zipped);
    expect(result).toMatchObject({ status: 'done', format: 'pocket', created: 2, duplicates: 1 });
    const links = byUrl(await allLinks(a.api));
    expect(links.get('https://pocket.example.com/one')).toMatchObject({
      title: 'Unread article',
      tags: ['tech', 'long read'],
      isRead: false,
      isReadLater: true,
      createdAt: iso(1700000000),
    });
    expect(links.get('https://pocket.example.com/two')).toMatchObject({
      title: 'Archived, with a comma',
      isRead: true,
      isReadLater: false,
    });

    const b = await server.signUp('pocketcsv');
    expect(await importFile(server.url, b.token, fixture('pocket-part_000000.csv'))).toMatchObject({
      format: 'pocket',
      created: 2,
    });

    const c = await server.signUp('pockethtml');
    const html = await importFile(server.url, c.token, fixture('ril_export.html'));
    expect(html).toMatchObject({ format: 'pocket', created: 3 });
    const old = byUrl(await allLinks(c.api));
    expect(old.get('https://read.example.com/later')).toMatchObject({
      tags: ['longform', 'essays'],
      isReadLater: true,
      isRead: false,
    });
    expect(old.get('https://read.example.com/done')).toMatchObject({
      isRead: true,
      isReadLater: false,
      createdAt: iso(1640000000),
    });
  });

  it('imports Raindrop, Instapaper, Karakeep, Linkwarden and Omnivore exports with their mapping', async () => {
    const r = await server.signUp('raindrop');
    expect(await importFile(server.url, r.token, fixture('raindrop.csv'))).toMatchObject({
      format: 'raindrop',
      created: 2,
    });
    const design = byUrl(await allLinks(r.api)).get('https://design.example.com/systems')!;
    expect(design).toMatchObject({
      title: 'Design systems',
      description: 'An excerpt of the page',
      category: 'Systems',
      tags: ['ui', 'components', 'favorite'],
      createdAt: '2023-05-01T10:00:00.000Z',
    });
    expect(design.notes).toBe(
      'My own note\n\nHighlights: Highlight: consistency matters\n\nCover: https://design.example.com/cover.png\n\nFolder: Design / Systems',
    );

    const i = await server.signUp('instapaper');
    expect(await importFile(server.url, i.token, fixture('instapaper.csv'))).toMatchObject({
      format: 'instapaper',
      created: 4,
    });
    const insta = byUrl(await allLinks(i.api));
    expect(insta.get('https://insta.example.com/unread')).toMatchObject({
      isReadLater: true,
      isRead: false,
      category: null,
    });
    expect(insta.get('https://insta.example.com/archived')).toMatchObject({
      isRead: true,
      description: 'Quoted selection',
      tags: ['history'],
    });
    expect(insta.get('https://insta.example.com/starred')).toMatchObject({ tags: ['starred'] });
    expect(insta.get('https://insta.example.com/cooking')).toMatchObject({ category: 'Cooking' });

    const k = await server.signUp('karakeep');
    const kResult = await importFile(server.url, k.token, fixture('karakeep.json'));
    expect(kResult).toMatchObject({ format: 'karakeep', created: 1, failed: 1 });
    expect(kResult.errors[0]?.reason).toBe('Not a link (a Karakeep text without an address)');
    expect((await allLinks(k.api))[0]).toMatchObject({
      title: 'Karakeep link',
      tags: ['self-hosted', 'tools', 'favourite'],
      notes: 'Keep this',
      isRead: true,
      createdAt: iso(1710000000),
    });

    const w = await server.signUp('linkwarden');
    expect(await importFile(server.url, w.token, fixture('linkwarden.json'))).toMatchObject({
      format: 'linkwarden',
      created: 2,
    });
    const warden = byUrl(await allLinks(w.api));
    expect(warden.get('https://warden.example.com/grid')).toMatchObject({
      title: 'CSS grid guide',
      description: 'Grid layout',
      category: 'Frontend',
      tags: ['css'],
      notes: 'Folder: Engineering / Frontend',
      createdAt: '2024-01-02T03:04:05.000Z',
    });
    expect(warden.get('https://warden.example.com/blog')).toMatchObject({ category: 'Engineering' });

    const o = await server.signUp('omnivore');
    const omnivoreZip = await zip({
      'metadata_0_to_2.json': fixture('omnivore-metadata_0_to_2.json'),
      'highlights/deep-work-a1.md': fixture('omnivore-deep-work-a1.md'),
      'content/deep-work-a1.html': '<p>page</p>',
    });
    expect(await importFile(server.url, o.token, omnivoreZip)).toMatchObject({ format: 'omnivore', created: 2 });
    const omni = byUrl(await allLinks(o.api));
    expect(omni.get('https://omni.example.com/deep-work')).toMatchObject({
      title: 'Deep work',
      description: 'Focus',
      tags: ['focus'],
      isRead: true,
      createdAt: '2023-03-04T05:06:07.000Z',
      notes:
        'Author: C. Newport\n\nPublished: 2016-01-05T00:00:00.000Z\n\nHighlights: > Clarity about what matters provides clarity about what does not.',
    });
    expect(omni.get('https://omni.example.com/unread')).toMatchObject({ isReadLater: true, isRead: false });
  });

  it('skips links already in the library, or fills their empty fields when asked; never doubles one', async () => {
    const { api, token } = await server.signUp('dupes');
    await api.createLink({ body: { url: 'https://www.kitchen.example.org/bread/', title: 'My own title' } });
    await api.createLink({ body: { url: 'https://docs.example.com/handbook' } });
    const skipped = await importFile(server.url, token, fixture('chrome-bookmarks.html'));
    expect(skipped).toMatchObject({ created: 3, duplicates: 3, updated: 0 });
    expect(skipped.errors.filter((e) => e.kind === 'duplicate').map((e) => e.reason)).toEqual([
      'Already in your library',
      'Already in your library',
      'Appears earlier in this file',
    ]);
    let links = byUrl(await allLinks(api));
    expect(links.get('https://www.kitchen.example.org/bread/')).toMatchObject({ title: 'My own title', tags: [] });

    const filled = await importFile(server.url, token, fixture('chrome-bookmarks.html'), { duplicates: 'fill-empty' });
    // Links the first import created hold everything the file has: nothing to fill, so duplicates.
    expect(filled).toMatchObject({ created: 0, updated: 2, duplicates: 4 });
    links = byUrl(await allLinks(api));
    expect(links.size).toBe(5);
    // The user's title stays; what was empty is filled from the file.
    expect(links.get('https://www.kitchen.example.org/bread/')).toMatchObject({
      title: 'My own title',
      description: 'A slow, patient loaf.',
      tags: ['baking', 'Sourdough'],
    });
    expect(links.get('https://docs.example.com/handbook')).toMatchObject({ title: 'Team handbook', category: 'Work' });
  });

  it('fills nothing from a repeat of an address the same import created, whichever batch the repeat falls in', async () => {
    // Billing is off on this server: every account holds unlimited links.
    const { api, token } = await server.signUp('repeat-batches');
    await api.createLink({ body: { url: 'https://repeat.example.com/library' } });
    const item = (url: string, extra = '') => `<DT><A HREF="${url}"${extra}>Item</A>`;
    const file = [
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
      '<DL><p>',
      item('https://repeat.example.com/again'),
      ...Array.from({ length: 520 }, (_, i) => item(`https://repeat.example.com/filler/${i}`)),
      // In the next batch of 500: the same address with more in it, and a link of the library.
      `${item('https://repeat.example.com/again', ' TAGS="later"')}<DD>Said later in the file`,
      `${item('https://repeat.example.com/library', ' TAGS="filled"')}<DD>From the file`,
      '</DL><p>',
    ].join('\n');
    const result = await importFile(server.url, token, file, { duplicates: 'fill-empty' });
    expect(result).toMatchObject({ status: 'done', created: 521, updated: 1, duplicates: 1 });
    expect(result.errors).toEqual([
      {
        index: 521,
        kind: 'duplicate',
        url: 'https://repeat.example.com/again',
        reason: 'Appears earlier in this file',
      },
    ]);
    const again = (await api.listLinks({ query: { search: 'repeat.example.com/again' } })).data[0];
    expect([again?.description, again?.tags]).toEqual(['', []]);
  });

  it('imports a plain list of addresses, one per line, each with an optional title', async () => {
    const { api, token } = await server.signUp('url-list');
    const list = [
      '# Reading for the week',
      'https://list.example.com/one',
      '',
      'list.example.com/two   The second one',
      'not an address at all',
      'https://list.example.com/three',
    ].join('\r\n');
    const result = await importFile(server.url, token, list);
    expect(result).toMatchObject({ status: 'done', format: 'urls', created: 3, skipped: 1 });
    expect(result.errors).toMatchObject([{ kind: 'skipped', url: 'not', reason: 'Not a valid web address' }]);
    expect(
      (await allLinks(api)).map((l) => [l.url, l.title]).sort(([a], [b]) => String(a).localeCompare(String(b))),
    ).toEqual([
      ['https://list.example.com/one', 'list.example.com'],
      ['https://list.example.com/three', 'list.example.com'],
      ['https://list.example.com/two', 'The second one'],
    ]);
  });

  it('reads a CSV a spreadsheet saved with semicolons, commas in its cells kept', async () => {
    const { api, token } = await server.signUp('semicolons');
    const csv = ['URL;Titel;Tags', 'https://semi.example.com/a;Äpfel, Birnen und mehr;obst', ''].join('\n');
    expect(await importFile(server.url, token, csv)).toMatchObject({ status: 'done', format: 'csv', created: 1 });
    expect((await allLinks(api)).map((l) => [l.url, l.title, l.tags])).toEqual([
      ['https://semi.example.com/a', 'semi.example.com', ['obst']],
    ]);
  });

  it('refuses what is no bookmark file, a truncated ZIP, an oversize upload, and reports bad items', async () => {
    const { api, token } = await server.signUp('bad');
    const notBookmarks = await upload(server.url, token, 'Dear diary, today I saved nothing.');
    expect(notBookmarks.status).toBe(400);
    expect(notBookmarks.body.code).toBe('UNSUPPORTED_FORMAT');
    const empty = await upload(server.url, token, '\uFEFF \n');
    expect([empty.status, empty.body.code, empty.body.error]).toEqual([
      400,
      'UNSUPPORTED_FORMAT',
      'The file is empty.',
    ]);

    const whole = await zip({ 'part_000000.csv': fixture('pocket-part_000000.csv') });
    const truncated = await upload(server.url, token, whole.subarray(0, Math.floor(whole.length / 2)));
    expect(truncated.status).toBe(400);
    expect(truncated.body).toMatchObject({ code: 'UNSUPPORTED_FORMAT' });

    const big = await upload(server.url, token, Buffer.alloc(2 * 1024 * 1024, 'a'));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      error: 'The file is larger than the import limit of 1 MB.',
    });

    const badOption = await upload(server.url, token, fixture('ril_export.html'), { categoryFrom: 'sideways' });
    expect(badOption.status).toBe(400);
    expect(badOption.body.code).toBe('VALIDATION_ERROR');

    const longUrl = `https://long.example.com/${'a'.repeat(10_000)}`;
    const file = netscapeFile(3)
      .replace('https://bulk.example.com/item/1', longUrl)
      .replace('https://bulk.example.com/item/2', '=HYPERLINK(&quot;https://evil.example&quot;)');
    const result = await importFile(server.url, token, file);
    expect(result).toMatchObject({ created: 1, skipped: 2 });
    expect(result.errors[0]).toMatchObject({ reason: 'The address is longer than 2,048 characters' });
    expect(result.errors[1]).toMatchObject({
      url: '=HYPERLINK("https://evil.example")',
      reason: 'Not a valid web address',
    });
    // The report never hands a spreadsheet a formula.
    const report = await raw(server, 'GET', `/api/import/${result.id}/report`, { token });
    expect(report.text).toContain(`3,skipped,"'=HYPERLINK(""https://evil.example"")",Not a valid web address`);
    expect(result.errors[0]!.url.length).toBeLessThanOrEqual(2100);
    expect((await allLinks(api)).length).toBe(1);
  });

  it('cleans text no database can hold (NUL bytes, lone surrogates, a pair cut at a limit) so every imported link stays editable', async () => {
    const { api, token } = await server.signUp('hygiene');
    const karakeep = JSON.stringify({
      bookmarks: [
        {
          createdAt: 1710000000,
          title: 'Bad\u0000Title',
          tags: ['x\ud800', 'fine'],
          content: { type: 'link', url: 'https://hygiene.example.com/json' },
          note: 'half \udc00 pair',
        },
      ],
    });
    const json = await upload(server.url, token, karakeep, {}, '/api/import', 'ka\u0000rakeep.json');
    expect(json.status).toBe(202);
    const jsonResult = await finished(server.url, token, String(json.body.id));
    expect(jsonResult).toMatchObject({ status: 'done', created: 1, fileName: 'karakeep.json' });

    // A raw NUL byte is valid UTF-8; a title longer than the limit is clipped between the halves of an emoji.
    const longTitle = `${'a'.repeat(498)}😀 and more`;
    const html = netscapeFile(2).replace('Item number 0', 'Nul\u0000in title').replace('Item number 1', longTitle);
    expect((await importFile(server.url, token, html)).created).toBe(2);

    const links = byUrl(await allLinks(api));
    const fromJson = links.get('https://hygiene.example.com/json')!;
    expect(fromJson.title).toBe('BadTitle');
    expect(fromJson.tags.sort()).toEqual(['fine', 'x\ufffd']);
    expect(fromJson.notes).toBe('half \ufffd pair');
    expect(links.get('https://bulk.example.com/item/0')!.title).toBe('Nulin title');
    const clipped = links.get('https://bulk.example.com/item/1')!;
    expect(clipped.title.length).toBeLessThanOrEqual(500);
    expect(clipped.title).not.toMatch(/\p{Cs}/u);
    for (const link of links.values()) {
      const res = await raw(server, 'PUT', `/api/links/${link.id}`, {
        token,
        body: JSON.stringify({ title: link.title, notes: link.notes, tags: link.tags }),
      });
      expect(res.status, link.url).toBe(200);
    }
  });

  it("holds a Linkwise export's analysis fields to what the analysis writes (a hand-edited file)", async () => {
    const { api, token } = await server.signUp('analysis-fields');
    const link = (n: number, aiDescription: string, favicon: string) => ({
      id: `0190f5a0-0000-7000-8000-0000000000b${n}`,
      url: `https://fields.example.com/${n}`,
      aiDescription,
      favicon,
      analysisStatus: 'done',
    });
    const file = JSON.stringify({
      format: 'linkwise',
      version: 1,
      links: [
        link(1, 'x'.repeat(200_000), `data:image/png;base64,${'A'.repeat(100_000)}`),
        link(2, 'A fine summary.', 'https://fields.example.com/favicon.ico'),
        link(3, '   ', 'javascript:alert(1)'),
      ],
    });
    expect(await importFile(server.url, token, file)).toMatchObject({ status: 'done', created: 3, errors: [] });
    const links = byUrl(await allLinks(api));
    expect(links.get('https://fields.example.com/1')).toMatchObject({ favicon: null });
    expect(links.get('https://fields.example.com/1')!.aiDescription).toHaveLength(5000);
    expect(links.get('https://fields.example.com/2')).toMatchObject({
      aiDescription: 'A fine summary.',
      favicon: 'https://fields.example.com/favicon.ico',
    });
    expect(links.get('https://fields.example.com/3')).toMatchObject({ aiDescription: null, favicon: null });
  });

  it('reads a bookmarks file in the legacy charset it declares, and one that declares it but is UTF-8', async () => {
    const { api, token } = await server.signUp('charsets');
    const file = (title: string) =>
      [
        '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
        '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1252">',
        '<DL><p>',
        `<DT><A HREF="https://charset.example.com/${title.length}">${title}</A>`,
        '</DL><p>',
      ].join('\n');
    // Windows-1252 bytes, written one per character: é is E9, ü FC, the dash 96, the euro sign 80.
    const legacy = Buffer.from(file('Caf\xe9 M\xfcller \x96 5 \x80'), 'latin1');
    expect(await importFile(server.url, token, legacy)).toMatchObject({ status: 'done', created: 1 });
    expect(await importFile(server.url, token, Buffer.from(file('Crème brûlée, in UTF-8 after all')))).toMatchObject({
      status: 'done',
      created: 1,
    });
    expect((await allLinks(api)).map((l) => l.title).sort()).toEqual([
      'Café Müller – 5 €',
      'Crème brûlée, in UTF-8 after all',
    ]);
  });

  it('keeps what was imported when the file turns out to be invalid UTF-8 part-way', async () => {
    const { api, token } = await server.signUp('utf8');
    await api.createLink({ body: { url: 'https://already.example.com/' } });
    const good = Buffer.from(netscapeFile(700).replace('</DL><p>\n</DL><p>', ''));
    // 600 links in, a byte that is never UTF-8.
    const cut = good.indexOf('https://bulk.example.com/item/600');
    const file = Buffer.concat([good.subarray(0, cut), Buffer.from([0xff, 0xfe]), good.subarray(cut)]);
    const { body } = await upload(server.url, token, file);
    const result = await finished(server.url, token, String(body.id));
    expect(result.status).toBe('failed');
    expect(result.message).toBe(
      'The file is not valid UTF-8 text: save it as UTF-8 (in Excel, "CSV UTF-8") and import it again.',
    );
    // Counting the items first finds the bad byte before anything is written; the library is untouched.
    expect(result.created).toBe(0);
    expect((await allLinks(api)).map((l) => l.url)).toEqual(['https://already.example.com/']);
  });

  it('cancels an import; links already created stay', async () => {
    const { api, token } = await server.signUp('cancel');
    const { body } = await upload(server.url, token, netscapeFile(5000));
    const id = String(body.id);
    const cancel = await raw(server, 'DELETE', `/api/import/${id}`, { token });
    expect(cancel.status).toBe(204);
    const result = await finished(server.url, token, id);
    expect(result.status).toBe('canceled');
    expect(result.created).toBeLessThan(5000);
    expect((await allLinks(api)).length).toBe(result.created);
  });

  it("answers 404 for another user's import", async () => {
    const a = await server.signUp('owner');
    const b = await server.signUp('other');
    const mine = await importFile(server.url, a.token, fixture('ril_export.html'));
    expect((await raw(server, 'GET', `/api/import/${mine.id}`, { token: b.token })).status).toBe(404);
    expect((await raw(server, 'DELETE', `/api/import/${mine.id}`, { token: b.token })).status).toBe(404);
    expect((await raw(server, 'GET', `/api/import/${mine.id}/report`, { token: b.token })).status).toBe(404);
    expect((await raw(server, 'GET', '/api/import', {})).status).toBe(401);
  });

  it('previews the first items as they would be saved, without saving anything', async () => {
    const { api, token } = await server.signUp('preview');
    const { status, body } = await upload(
      server.url,
      token,
      fixture('chrome-bookmarks.html'),
      {},
      '/api/import/preview',
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ format: 'netscape', hasFolders: true });
    const rows = body.rows as { url: string; category: string | null; problem: string | null }[];
    expect(rows).toHaveLength(8);
    expect(rows[1]).toMatchObject({ category: 'Research Papers', problem: null });
    expect(rows[3]!.problem).toBe('Not a web address (javascript: links are not imported)');
    // Nothing is a duplicate yet but the file's own repeat (the same paper without its tracking parameter).
    const marks = (rows: unknown) => (rows as { duplicate: string | null }[]).map((r) => r.duplicate ?? '-').join(' ');
    expect(marks(body.rows)).toBe('- - - - - file - -');
    expect((await allLinks(api)).length).toBe(0);

    // An address already saved is marked as such, and so is its repeat further down.
    await api.createLink({ body: { url: 'https://papers.example.com/attention' } });
    const again = await upload(server.url, token, fixture('chrome-bookmarks.html'), {}, '/api/import/preview');
    expect(marks(again.body.rows)).toBe('- library - - - file - -');
  });

  it('round-trips a library through its JSON export, field by field, credentials and vault included', async () => {
    const { api, token } = await server.signUp('roundtrip');
    const material = keyMaterial(3);
    await api.putVault({ body: { ...material, replaces: null } });
    server.clock.advance(1000);
    await api.createLink({
      body: {
        url: 'https://round.example.com/a',
        title: 'First, "quoted" <b>title</b>',
        description: 'Line one\nline two',
        category: 'Reading',
        tags: ['one', 'Two words'],
        notes: '=SUM(A1) not a formula',
        isReadLater: true,
        credentials: [{ id: 'c1', iv: 'aXY=', ciphertext: 'Y2lwaGVy', v: 1 }],
      },
    });
    server.clock.advance(1000);
    const second = await api.createLink({ body: { url: 'https://round.example.com/b' } });
    await api.updateLink({ params: { id: second.id }, body: { isRead: true } });
    const before = await allLinks(api);

    const exported = await raw(server, 'GET', '/api/export?format=json', { token });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/attachment; filename="linkwise-export-.*\.json"/);
    const body = exported.json() as { vault: unknown; links: Link[] };
    expect(body.vault).toEqual(material);
    expect(body.links).toEqual(before);

    // Restore into the same account after losing everything: ids, credentials and dates come back.
    for (const link of before) await api.deleteLink({ params: { id: link.id } });
    const restored = await importFile(server.url, token, exported.text);
    expect(restored).toMatchObject({ format: 'linkwise', created: 2, failed: 0 });
    const after = await allLinks(api);
    expect(after).toEqual(before);

    // Into another account: every field but ids and credentials (sealed with another vault's key).
    const other = await server.signUp('roundtrip-other');
    await other.api.putVault({
      body: { ...material, wrappedKey: Buffer.alloc(48, 9).toString('base64'), replaces: null },
    });
    const elsewhere = await importFile(server.url, other.token, exported.text);
    expect(elsewhere).toMatchObject({ created: 2 });
    expect(elsewhere.errors).toEqual([
      {
        index: 0,
        kind: 'partial',
        url: 'https://round.example.com/a',
        reason: "Imported without its 1 saved credential(s): they were sealed with another vault's key",
      },
    ]);
    const copied = await allLinks(other.api);
    const strip = ({ id: _id, credentials: _c, ...rest }: Link) => rest;
    expect(copied.map(strip)).toEqual(before.map(strip));
    expect(copied[0]!.credentials).toEqual([]);

    // A hand-edited export: a credential id twice, a damaged one, and more than a link may hold. The
    // rest of the file still imports; the report says what was left out.
    const edited = JSON.parse(exported.text) as { vault: unknown; links: (Link & { id: string })[] };
    const cred = (id: string) => ({ id, iv: 'aXY=', ciphertext: 'Y2lwaGVy', v: 1 });
    edited.links[0]!.credentials = [cred('x'), cred('x'), cred('damaged\u0000')];
    edited.links[1]!.credentials = Array.from({ length: 25 }, (_, i) => cred(`c${i}`));
    for (const link of await allLinks(api)) await api.deleteLink({ params: { id: link.id } });
    const handEdited = await importFile(server.url, token, JSON.stringify(edited));
    expect(handEdited).toMatchObject({ status: 'done', created: 2, failed: 0 });
    expect(handEdited.errors.map((e) => [e.kind, e.reason])).toEqual([
      ['partial', 'Imported without 2 of its saved credentials: damaged, repeated, or over 20 a link'],
      ['partial', 'Imported without 5 of its saved credentials: damaged, repeated, or over 20 a link'],
    ]);
    const kept = byUrl(await allLinks(api));
    expect(kept.get('https://round.example.com/a')!.credentials).toEqual([cred('x')]);
    expect(kept.get('https://round.example.com/b')!.credentials).toHaveLength(20);
  });

  it("says why credentials stay behind when the export's link ids are taken on this server, not blaming the vault", async () => {
    const { api, token } = await server.signUp('ids-taken');
    await api.putVault({ body: { ...keyMaterial(4), replaces: null } });
    await api.createLink({
      body: {
        url: 'https://ids.example.com/a',
        credentials: [{ id: 'c1', iv: 'aXY=', ciphertext: 'Y2lwaGVy', v: 1 }],
      },
    });
    const exported = await raw(server, 'GET', '/api/export?format=json', { token });

    // A second account without a vault adopts the exported one: the key matches, the ids are taken.
    const other = await server.signUp('ids-taken-other');
    const result = await importFile(server.url, other.token, exported.text);
    expect(result).toMatchObject({ created: 1 });
    expect(result.errors).toEqual([
      {
        index: 0,
        kind: 'partial',
        url: 'https://ids.example.com/a',
        reason:
          "Imported without its 1 saved credential(s): they are sealed to the link's id, which another link already has (delete that link, then import again)",
      },
    ]);
  });

  it('never sets up the vault from a file an API token sends (PUT /api/vault refuses tokens too)', async () => {
    const { api, token } = await server.signUp('token-vault');
    const material = keyMaterial(5);
    const link = (id: string, url: string) => ({
      id,
      url,
      credentials: [{ id: 'c1', iv: 'aXY=', ciphertext: 'Y2lwaGVy', v: 1 }],
    });
    const file = (links: object[]) => JSON.stringify({ format: 'linkwise', version: 1, vault: material, links });
    const { token: apiToken } = await api.createApiToken({ body: { name: 'Script', scope: 'write' } });
    const byToken = await importFile(
      server.url,
      apiToken,
      file([link('0190f5a0-0000-7000-8000-00000000aa01', 'https://token.example.com/a')]),
    );
    expect(byToken).toMatchObject({ status: 'done', created: 1 });
    expect(byToken.errors.map((e) => e.reason)).toEqual([
      'Imported without its 1 saved credential(s): an API token cannot set up the vault (import the file from the web app to keep them)',
    ]);
    expect((await raw(server, 'GET', '/api/vault', { token })).json()).toMatchObject({ data: null });
    expect((await allLinks(api))[0]!.credentials).toEqual([]);

    // The same file from the web app's session sets the vault up, and its credentials come with it.
    const bySession = await importFile(
      server.url,
      token,
      file([link('0190f5a0-0000-7000-8000-00000000aa02', 'https://token.example.com/b')]),
    );
    expect(bySession).toMatchObject({ status: 'done', created: 1, errors: [] });
    expect((await raw(server, 'GET', '/api/vault', { token })).json()).toMatchObject({
      data: { wrappedKey: material.wrappedKey },
    });
    // Once the account holds that key, a token's import of credentials sealed with it keeps them.
    const again = await importFile(
      server.url,
      apiToken,
      file([link('0190f5a0-0000-7000-8000-00000000aa03', 'https://token.example.com/c')]),
    );
    expect(again).toMatchObject({ status: 'done', created: 1, errors: [] });
    expect(byUrl(await allLinks(api)).get('https://token.example.com/c')!.credentials).toHaveLength(1);
  });

  it('exports Netscape HTML that imports back, and CSV safe for spreadsheets', async () => {
    const { api, token } = await server.signUp('exports');
    await importFile(server.url, token, fixture('chrome-bookmarks.html'));
    // A category named like a browser's own folder is still the user's category.
    await api.createLink({ body: { url: 'https://fav.example.com/', title: 'Fav', category: 'Favorites' } });
    const original = await allLinks(api);
    const html = await raw(server, 'GET', '/api/export?format=html', { token });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Gzipped at a fast level as it streams (fetch asks for gzip and decodes it).
    expect(html.headers.get('content-encoding')).toBe('gzip');
    expect(html.text.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>')).toBe(true);
    expect(html.text).toContain('<DT><H3 LINKWISE_CATEGORY="true">Research Papers</H3>');
    expect(html.text).toContain('TAGS="baking,Sourdough"');

    const copy = await server.signUp('exports-copy');
    expect(await importFile(server.url, copy.token, html.text)).toMatchObject({ format: 'netscape', created: 6 });
    const pick = (l: Link) => [l.url, l.title, l.category, l.tags, l.isReadLater, l.createdAt];
    expect((await allLinks(copy.api)).map(pick).sort()).toEqual(original.map(pick).sort());

    await api.createLink({ body: { url: 'https://csv.example.com/', title: '=HYPERLINK("x")' } });
    const csv = await raw(server, 'GET', '/api/export?format=csv', { token });
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'url,title,description,category,tags,notes,isRead,isReadLater,createdAt,updatedAt,aiDescription',
    );
    expect(lines).toHaveLength(8);
    expect(csv.text).toContain(`https://csv.example.com/,"'=HYPERLINK(""x"")"`);
    expect((await raw(server, 'GET', '/api/export?format=pdf', { token })).status).toBe(400);
    expect((await raw(server, 'GET', '/api/export?format=json', {})).status).toBe(401);
  });

  it('imports its own CSV export back, and any CSV with a url column by its column names', async () => {
    const { api, token } = await server.signUp('csv-source');
    await importFile(server.url, token, fixture('chrome-bookmarks.html'));
    const [first] = await allLinks(api);
    await api.updateLink({
      params: { id: first!.id },
      body: { notes: 'Line one\nline "two", with a comma', isRead: true },
    });
    await api.createLink({ body: { url: 'https://csv.example.com/', title: '=HYPERLINK("x")', tags: ['a|b', 'c'] } });
    // A category with a slash is one name, a lone tag with a bar one tag, a title quoted before a formula sign as typed.
    await api.createLink({
      body: { url: 'https://csv.example.com/2', title: "'=already quoted", category: 'AC/DC', tags: ['pipe|tag'] },
    });
    const original = await allLinks(api);
    const csv = await raw(server, 'GET', '/api/export?format=csv', { token });

    const copy = await server.signUp('csv-copy');
    const result = await importFile(server.url, copy.token, csv.text);
    expect(result).toMatchObject({ status: 'done', format: 'csv', created: original.length, failed: 0, skipped: 0 });
    const pick = (l: Link) => [
      l.url,
      l.title,
      l.description,
      l.category,
      l.tags,
      l.notes,
      l.isRead,
      l.isReadLater,
      l.createdAt,
    ];
    expect((await allLinks(copy.api)).map(pick).sort()).toEqual(original.map(pick).sort());

    const sheet = [
      'Link,Name,Labels,Folder,Date Added,Read Later,Rating',
      'https://sheet.example.com/1,First row,"x, y",Work / Papers,2021-03-04T05:06:07Z,yes,5',
      'not a web address,Second row,,,,,',
    ].join('\r\n');
    const fromSheet = await importFile(server.url, copy.token, sheet);
    expect(fromSheet).toMatchObject({ status: 'done', format: 'csv', created: 1, skipped: 1 });
    expect(byUrl(await allLinks(copy.api)).get('https://sheet.example.com/1')).toMatchObject({
      title: 'First row',
      tags: ['x', 'y'],
      category: 'Papers',
      isReadLater: true,
      createdAt: '2021-03-04T05:06:07.000Z',
      notes: 'Rating: 5\n\nFolder: Work / Papers',
    });
  });

  it('imports a file of thousands of links in checkpointed batches', async () => {
    const { api, token } = await server.signUp('many');
    const result = await importFile(server.url, token, netscapeFile(1200));
    expect(result).toMatchObject({ status: 'done', total: 1200, processed: 1200, created: 1200 });
    const page = await api.listLinks({ query: { limit: 1 } });
    expect(page.actualTotal).toBe(1200);
    expect((await api.listLinks({ query: { search: 'number 1199' } })).data[0]?.category).toBe('Folder 11');
    expect(result.errors).toEqual([]);
  });
});

describe.each(engines())('imports on the Free plan on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, { JOBS_ENABLED: 'true', BILLING: 'simulated', FREE_LINK_LIMIT: '3' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('imports up to the limit and reports the rest as skipped with the reason', async () => {
    const { api, token } = await server.signUp('free');
    await api.createLink({ body: { url: 'https://mine.example.com/' } });
    const result = await importFile(server.url, token, fixture('chrome-bookmarks.html'));
    expect(result).toMatchObject({ status: 'done', created: 2, duplicates: 1 });
    const overLimit = result.errors.filter((e) => e.reason.startsWith('Over the Free plan'));
    expect(overLimit).toHaveLength(3);
    expect(overLimit[0]!.reason).toBe("Over the Free plan's limit of 3 links: upgrade to Pro to import the rest");
    expect((await api.listLinks({ query: {} })).actualTotal).toBe(3);
  });

  it('fills empty fields only in links the plan still shows, after a downgrade', async () => {
    const { api, token } = await server.signUp('downgraded');
    await upgrade(server, api);
    const links = await seed(
      server,
      api,
      [1, 2, 3, 4].map((i) => ({ url: `https://down.example.com/${i}`, title: `Saved ${i}` })),
    );
    await api.cancelSubscription();
    server.clock.advance(33 * DAY_MS);
    expect((await api.listLinks({ query: {} })).total).toBe(3);

    const file = [
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
      '<DL><p>',
      ...[1, 4].map((i) => `<DT><A HREF="https://down.example.com/${i}" TAGS="filled">Saved ${i}</A><DD>From the file`),
      '</DL><p>',
    ].join('\n');
    const result = await importFile(server.url, token, file, { duplicates: 'fill-empty' });
    expect(result).toMatchObject({ status: 'done', created: 0, updated: 1, duplicates: 1 });
    expect(await api.getLink({ params: { id: links[0]!.id } })).toMatchObject({
      description: 'From the file',
      tags: ['filled'],
    });
    // The hidden link is as it was: a downgrade leaves hidden links untouched until Pro comes back.
    const hidden = await server.database.db
      .selectFrom('links')
      .select(['description', 'updated_at'])
      .where('id', '=', links[3]!.id)
      .executeTakeFirstOrThrow();
    expect(hidden).toEqual({ description: '', updated_at: new Date(links[3]!.updatedAt).getTime() });
    expect((await api.listTags()).data.map((t) => [t.name, t.count])).toEqual([['filled', 1]]);
  });
});

describe.each(engines())('imports waiting on %s', (engine) => {
  let server: TestServer;
  // No worker runs: every import stays queued, as behind a busy worker.
  beforeAll(async () => {
    server = await startServer(engine, { JOBS_ENABLED: 'false', BILLING: 'off' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('takes 3 waiting imports of one account, refuses a 4th until one is cancelled, and keeps no file of it', async () => {
    const { token } = await server.signUp('queued');
    const other = await server.signUp('queued-other');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { status, body } = await upload(server.url, token, netscapeFile(2));
      expect(status).toBe(202);
      ids.push(String(body.id));
    }
    const refused = await upload(server.url, token, netscapeFile(2));
    expect(refused).toMatchObject({
      status: 409,
      body: {
        code: 'INVALID_STATE',
        error: '3 of your imports are still waiting or running. Let one finish, or cancel it, then import this file.',
      },
    });
    expect(readdirSync(path.join(server.config.DATA_DIR, 'imports'))).toHaveLength(3);
    // Another account's imports are its own.
    expect((await upload(server.url, other.token, netscapeFile(2))).status).toBe(202);
    expect((await raw(server, 'DELETE', `/api/import/${ids[0]}`, { token })).status).toBe(204);
    expect((await upload(server.url, token, netscapeFile(2))).status).toBe(202);
  });
});
