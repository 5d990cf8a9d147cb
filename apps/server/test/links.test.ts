import {
  ApiError,
  type ApiClient,
  LinkSchema,
  Messages,
  type EncryptedCredential,
  type Link,
  type LinkCreateInput,
} from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, raw, setUpVault, startServer, type TestServer } from './harness.js';

/** An encrypted credential as the web app's vault produces it (opaque to the server). */
const credential = (id: string): EncryptedCredential => ({
  id,
  iv: 'bm9uY2Utbm9uY2U=',
  ciphertext: `Y2lwaGVydGV4dC0${id}`,
  v: 1,
});

const invalidUrl = {
  error: Messages.invalidUrl,
  code: 'VALIDATION_ERROR',
  details: { fields: { url: Messages.invalidUrl } },
};

describe.each(engines())('links on %s', (engine) => {
  let server: TestServer;
  const iso = () => new Date(server.clock.now()).toISOString();

  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  /** A new user with a vault, as the web app has one before it lets credentials be added. */
  const withVault = async (label: string) => {
    const user = await server.signUp(label);
    await setUpVault(user.api);
    return user;
  };

  describe('create', () => {
    it('answers 201 with exactly the Link shape', async () => {
      const { token, api } = await server.signUp('shape');
      const res = await raw(server, 'POST', '/api/links', {
        token,
        body: JSON.stringify({
          url: '  https://example.com/articles/one  ',
          title: '  A good article ',
          description: 'About things',
          category: '  Development  ',
          tags: ['typescript', 'node'],
          notes: 'read on the train',
          isReadLater: true,
          unknownField: 'ignored',
        }),
      });
      expect(res.status).toBe(201);
      const link = LinkSchema.strict().parse(res.json());
      expect(link).toEqual({
        id: expect.any(String) as string,
        url: 'https://example.com/articles/one',
        title: 'A good article',
        description: 'About things',
        aiDescription: null,
        category: 'Development',
        tags: ['typescript', 'node'],
        notes: 'read on the train',
        isRead: false,
        isReadLater: true,
        credentials: [],
        favicon: null,
        createdAt: iso(),
        updatedAt: iso(),
        analysisStatus: 'pending',
        analysisFailure: null,
        analysisStartedAt: iso(),
        faviconData: null,
      });
      expect(await api.getLink({ params: { id: link.id } })).toEqual(link);
    });

    it('fills the optional fields with empty values', async () => {
      const { api } = await server.signUp('minimal');
      const link = await api.createLink({ body: { url: 'https://minimal.example/' } });
      expect(link).toMatchObject({
        title: 'minimal.example',
        description: '',
        category: null,
        tags: [],
        notes: '',
        isRead: false,
        isReadLater: false,
        credentials: [],
      });
    });

    it('refuses anything but an absolute http(s) URL with the spec wording', async () => {
      const { token, api } = await server.signUp('badurl');
      const bodies: unknown[] = [
        { url: 'not a url' },
        { url: 'example.com' },
        { url: 'ftp://example.com/file.txt' },
        { url: 'javascript:alert(1)' },
        { url: 'mailto:someone@example.com' },
        { url: 'http://' },
        { url: '' },
        { url: '   ' },
        { url: null },
        { url: 42 },
        {},
        { title: 'no url at all' },
      ];
      for (const body of bodies) {
        const res = await raw(server, 'POST', '/api/links', { token, body: JSON.stringify(body) });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.json(), JSON.stringify(body)).toEqual(invalidUrl);
      }
      const e = await failure(api.createLink({ body: { url: 'ftp://example.com' } }));
      expect([e.status, e.code, e.message, e.details]).toEqual([
        400,
        'VALIDATION_ERROR',
        Messages.invalidUrl,
        { fields: { url: Messages.invalidUrl } },
      ]);
      expect((await api.listLinks()).actualTotal).toBe(0);
    });

    it('accepts http and https URLs', async () => {
      const { api } = await server.signUp('goodurl');
      const http = await api.createLink({ body: { url: 'http://plain.example/page' } });
      const https = await api.createLink({ body: { url: 'https://secure.example/page?q=1' } });
      expect(http.url).toBe('http://plain.example/page');
      expect(https.url).toBe('https://secure.example/page?q=1');
    });

    it('refuses an address with a user name or password in it', async () => {
      const { api } = await server.signUp('userinfo');
      for (const url of ['https://alice:hunter2@intranet.example/x', 'https://alice@intranet.example/x']) {
        const e = await failure(api.createLink({ body: { url } }));
        expect([e.status, e.details]).toEqual([400, { fields: { url: Messages.urlWithCredentials } }]);
      }
      expect((await api.listLinks()).actualTotal).toBe(0);
    });

    it('falls back to the host when the title is empty', async () => {
      const { api } = await server.signUp('hosttitle');
      const omitted = await api.createLink({ body: { url: 'https://www.example.net/some/page' } });
      const empty = await api.createLink({ body: { url: 'https://docs.example.net/a', title: '' } });
      const blank = await api.createLink({ body: { url: 'https://blog.example.net/b', title: '   ' } });
      const nulled = await api.createLink({ body: { url: 'https://EXAMPLE.org/c', title: null } });
      const given = await api.createLink({ body: { url: 'https://given.example.net/d', title: '  Mine  ' } });
      expect([omitted.title, empty.title, blank.title, nulled.title, given.title]).toEqual([
        'example.net',
        'docs.example.net',
        'blog.example.net',
        'example.org',
        'Mine',
      ]);
    });
  });

  describe('tags', () => {
    it('accepts an array: trimmed, empties dropped, leading # stripped, first spelling kept', async () => {
      const { api } = await server.signUp('tagarray');
      const link = await api.createLink({
        body: {
          url: 'https://tags.example/array',
          tags: ['  React ', 'react', '', '   ', '#TypeScript', 'REACT', 'typescript', 'machine   learning', 'a,b'],
        },
      });
      expect(link.tags).toEqual(['React', 'TypeScript', 'machine learning', 'a', 'b']);
    });

    it('accepts a comma-separated string', async () => {
      const { api } = await server.signUp('tagstring');
      const link = await api.createLink({
        body: { url: 'https://tags.example/string', tags: ' vue, , Vue ,#css,  CSS  ,,web dev ' },
      });
      expect(link.tags).toEqual(['vue', 'css', 'web dev']);
      const updated = await api.updateLink({ params: { id: link.id }, body: { tags: '#one,two, #One' } });
      expect(updated.tags).toEqual(['one', 'two']);
    });

    it('keeps one tag row per user and normalised name across links', async () => {
      const { api, userId } = await server.signUp('tagreuse');
      const first = await api.createLink({ body: { url: 'https://reuse.example/1', tags: ['JavaScript'] } });
      const second = await api.createLink({ body: { url: 'https://reuse.example/2', tags: ['javascript', 'Web'] } });
      const third = await api.createLink({ body: { url: 'https://reuse.example/3' } });
      await api.updateLink({ params: { id: third.id }, body: { tags: '#JAVASCRIPT, web' } });
      // Another user's identical tag is their own row.
      const other = await server.signUp('tagother');
      await other.api.createLink({ body: { url: 'https://reuse.example/1', tags: ['javascript'] } });

      const rows = await server.database.db
        .selectFrom('tags')
        .select(['name', 'name_key'])
        .where('user_id', '=', userId)
        .orderBy('name_key')
        .execute();
      expect(rows).toEqual([
        { name: 'JavaScript', name_key: 'javascript' },
        { name: 'Web', name_key: 'web' },
      ]);
      const everyone = await server.database.db
        .selectFrom('tags')
        .select('user_id')
        .where('name_key', '=', 'javascript')
        .execute();
      expect(everyone).toHaveLength(2);
      // Every link now points at the one stored spelling.
      expect((await api.getLink({ params: { id: first.id } })).tags).toEqual(['JavaScript']);
      expect((await api.getLink({ params: { id: second.id } })).tags).toEqual(['JavaScript', 'Web']);
      expect((await api.getLink({ params: { id: third.id } })).tags).toEqual(['JavaScript', 'Web']);
    });

    it('creates a new tag once when several links get it at the same moment', async () => {
      const { api, userId } = await server.signUp('tagrace');
      const links: Link[] = [];
      for (let i = 0; i < 6; i++) links.push(await api.createLink({ body: { url: `https://tagrace.example/${i}` } }));
      const updated = await Promise.all(
        links.map((l, i) => api.updateLink({ params: { id: l.id }, body: { tags: [i % 2 ? 'Fresh' : 'fresh'] } })),
      );
      expect(new Set(updated.map((l) => l.tags.length))).toEqual(new Set([1]));
      const rows = await server.database.db
        .selectFrom('tags')
        .select('name_key')
        .where('user_id', '=', userId)
        .execute();
      expect(rows).toEqual([{ name_key: 'fresh' }]);
      expect((await api.listLinks({ query: { search: '#fresh' } })).total).toBe(6);
    });

    it('replaces or clears tags on update and leaves them alone otherwise', async () => {
      const { api } = await server.signUp('tagupdate');
      const link = await api.createLink({ body: { url: 'https://tags.example/update', tags: ['a', 'b'] } });
      expect((await api.updateLink({ params: { id: link.id }, body: { notes: 'x' } })).tags).toEqual(['a', 'b']);
      expect((await api.updateLink({ params: { id: link.id }, body: { tags: ['c', 'a'] } })).tags).toEqual(['c', 'a']);
      expect((await api.updateLink({ params: { id: link.id }, body: { tags: [] } })).tags).toEqual([]);
      expect((await api.updateLink({ params: { id: link.id }, body: { tags: ' , ' } })).tags).toEqual([]);
    });
  });

  describe('duplicates', () => {
    it('answers 409 DUPLICATE_LINK with the saved link id for every variant of a URL', async () => {
      const { api } = await server.signUp('dupes');
      const saved = await api.createLink({ body: { url: 'https://example.org/guide?page=2' } });
      const variants = [
        'http://example.org/guide?page=2',
        'https://www.example.org/guide?page=2',
        'https://example.org/guide/?page=2',
        'https://example.org/guide?page=2&utm_source=newsletter&utm_medium=email',
        'https://example.org/guide?utm_campaign=x&page=2',
        'https://example.org/guide?page=2#section-2',
        'HTTPS://EXAMPLE.ORG/guide?page=2',
        'https://example.org:443/guide?page=2',
      ];
      for (const url of variants) {
        const e = await failure(api.createLink({ body: { url, title: 'again' } }));
        expect([e.status, e.code, e.details], url).toEqual([409, 'DUPLICATE_LINK', { linkId: saved.id }]);
      }
      expect((await api.listLinks()).actualTotal).toBe(1);

      const root = await api.createLink({ body: { url: 'https://root.example' } });
      const query = await api.createLink({ body: { url: 'https://root.example/search?b=2&a=1' } });
      for (const [url, linkId] of [
        ['https://www.root.example/', root.id],
        ['http://root.example/#top', root.id],
        ['https://root.example/search?a=1&b=2', query.id],
        ['https://root.example/search?a=1&b=2&fbclid=abc&gclid=def', query.id],
      ] as const) {
        const e = await failure(api.createLink({ body: { url } }));
        expect([e.code, e.details], url).toEqual(['DUPLICATE_LINK', { linkId }]);
      }
    });

    it('treats different pages, queries and app routes as different links', async () => {
      const { api } = await server.signUp('notdupes');
      const urls = [
        'https://example.org/guide',
        'https://example.org/guide?page=3',
        'https://example.org/other',
        'https://sub.example.org/guide',
        'https://app.example.org/#/inbox',
        'https://app.example.org/#/settings',
      ];
      for (const url of urls) await api.createLink({ body: { url } });
      expect((await api.listLinks()).actualTotal).toBe(urls.length);
    });

    it('checks duplicates per user only', async () => {
      const alice = await server.signUp('dupalice');
      const bob = await server.signUp('dupbob');
      const a = await alice.api.createLink({ body: { url: 'https://shared.example/page' } });
      const b = await bob.api.createLink({ body: { url: 'https://shared.example/page' } });
      expect(a.id).not.toBe(b.id);
    });

    it('saves a URL once when the same save arrives several times at once', async () => {
      const { api } = await server.signUp('dupraces');
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => api.createLink({ body: { url: 'https://race.example/page' } })),
      );
      const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(created).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') {
          expect(r.reason).toBeInstanceOf(ApiError);
          const e = r.reason as ApiError;
          expect([e.status, e.code, e.details]).toEqual([409, 'DUPLICATE_LINK', { linkId: created[0]?.id }]);
        }
      }
    });
  });

  describe('update', () => {
    it('ignores a url in the body: the URL is read-only', async () => {
      const { api, token } = await server.signUp('readonly');
      const link = await api.createLink({ body: { url: 'https://original.example/a' } });
      const res = await raw(server, 'PUT', `/api/links/${link.id}`, {
        token,
        body: JSON.stringify({ url: 'https://changed.example/b', title: 'Renamed' }),
      });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ url: 'https://original.example/a', title: 'Renamed' });
      expect((await api.getLink({ params: { id: link.id } })).url).toBe('https://original.example/a');
      // The duplicate key still belongs to the original URL.
      const dup = await failure(api.createLink({ body: { url: 'https://original.example/a' } }));
      expect(dup.code).toBe('DUPLICATE_LINK');
      await api.createLink({ body: { url: 'https://changed.example/b' } });
    });

    it('requires a title when one is sent', async () => {
      const { api, token } = await server.signUp('titlereq');
      const link = await api.createLink({ body: { url: 'https://title.example/', title: 'Keep me' } });
      for (const title of ['', '   ', null]) {
        const res = await raw(server, 'PUT', `/api/links/${link.id}`, { token, body: JSON.stringify({ title }) });
        expect(res.status).toBe(400);
        expect(res.json()).toEqual({
          error: Messages.titleRequired,
          code: 'VALIDATION_ERROR',
          details: { fields: { title: Messages.titleRequired } },
        });
      }
      const e = await failure(api.updateLink({ params: { id: link.id }, body: { title: ' ' } }));
      expect(e.details).toEqual({ fields: { title: Messages.titleRequired } });
      expect((await api.getLink({ params: { id: link.id } })).title).toBe('Keep me');
      expect((await api.updateLink({ params: { id: link.id }, body: { title: '  New title ' } })).title).toBe(
        'New title',
      );
    });

    it('changes only the fields sent', async () => {
      const { api } = await withVault('partial');
      const link = await api.createLink({
        body: {
          url: 'https://partial.example/',
          title: 'Title',
          description: 'Description',
          category: 'Research',
          tags: ['x', 'y'],
          notes: 'Notes',
          isReadLater: true,
          credentials: [credential('c1')],
        },
      });
      const stable = { url: link.url, createdAt: link.createdAt, id: link.id };

      const notes = await api.updateLink({ params: { id: link.id }, body: { notes: 'New notes' } });
      expect(notes).toEqual({ ...link, notes: 'New notes', updatedAt: notes.updatedAt });

      const described = await api.updateLink({ params: { id: link.id }, body: { description: '' } });
      expect(described).toMatchObject({ ...stable, description: '', notes: 'New notes', title: 'Title' });

      const uncategorised = await api.updateLink({ params: { id: link.id }, body: { category: null } });
      expect(uncategorised).toMatchObject({ category: null, tags: ['x', 'y'], isReadLater: true });
      const recategorised = await api.updateLink({ params: { id: link.id }, body: { category: '  Design ' } });
      expect(recategorised.category).toBe('Design');
      expect((await api.updateLink({ params: { id: link.id }, body: { category: '' } })).category).toBeNull();

      const untouched = await api.updateLink({ params: { id: link.id }, body: {} });
      expect(untouched).toMatchObject({
        ...stable,
        title: 'Title',
        description: '',
        category: null,
        tags: ['x', 'y'],
        notes: 'New notes',
        isRead: false,
        isReadLater: true,
        credentials: [credential('c1')],
      });
    });

    it('toggles isRead and isReadLater independently', async () => {
      const { api } = await server.signUp('toggles');
      const link = await api.createLink({ body: { url: 'https://toggle.example/' } });
      const id = link.id;
      expect(await api.updateLink({ params: { id }, body: { isRead: true } })).toMatchObject({
        isRead: true,
        isReadLater: false,
      });
      expect(await api.updateLink({ params: { id }, body: { isReadLater: true } })).toMatchObject({
        isRead: true,
        isReadLater: true,
      });
      expect(await api.updateLink({ params: { id }, body: { isRead: false } })).toMatchObject({
        isRead: false,
        isReadLater: true,
      });
      expect(await api.updateLink({ params: { id }, body: { isReadLater: false } })).toMatchObject({
        isRead: false,
        isReadLater: false,
      });
      expect(await api.getLink({ params: { id } })).toMatchObject({ isRead: false, isReadLater: false });
    });

    it('refuses flags that are not booleans', async () => {
      const { api, token } = await server.signUp('flagtypes');
      const link = await api.createLink({ body: { url: 'https://flags.example/' } });
      const res = await raw(server, 'PUT', `/api/links/${link.id}`, {
        token,
        body: JSON.stringify({ isRead: 'yes' }),
      });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: { isRead: expect.any(String) as string } },
      });
      expect((await api.getLink({ params: { id: link.id } })).isRead).toBe(false);
    });

    it('answers 404, never a 500, when the link is deleted while it is being updated', async () => {
      const { api } = await withVault('updaterace');
      for (let i = 0; i < 20; i++) {
        const link = await api.createLink({ body: { url: `https://updaterace.example/${i}` } });
        const [update, remove] = await Promise.allSettled([
          api.updateLink({ params: { id: link.id }, body: { tags: [`t${i}`], credentials: [credential(`r${i}`)] } }),
          api.deleteLink({ params: { id: link.id } }),
        ]);
        expect(remove.status).toBe('fulfilled');
        if (update.status === 'rejected') {
          expect(update.reason).toBeInstanceOf(ApiError);
          expect([(update.reason as ApiError).status, (update.reason as ApiError).code]).toEqual([404, 'NOT_FOUND']);
        }
        const { db } = server.database;
        expect(await db.selectFrom('link_tags').select('tag_id').where('link_id', '=', link.id).execute()).toEqual([]);
        expect(await db.selectFrom('credentials').select('id').where('link_id', '=', link.id).execute()).toEqual([]);
      }
      expect((await api.listLinks()).actualTotal).toBe(0);
    });

    it('moves updatedAt forward and keeps createdAt', async () => {
      const { api } = await server.signUp('updatedat');
      const link = await api.createLink({ body: { url: 'https://time.example/' } });
      expect(link.updatedAt).toBe(link.createdAt);
      server.clock.advance(5_000);
      const updated = await api.updateLink({ params: { id: link.id }, body: { isRead: true } });
      expect(updated.createdAt).toBe(link.createdAt);
      expect(updated.updatedAt).toBe(iso());
      expect(Date.parse(updated.updatedAt)).toBe(Date.parse(link.updatedAt) + 5_000);
      server.clock.advance(60_000);
      const again = await api.updateLink({ params: { id: link.id }, body: { notes: 'later' } });
      expect(Date.parse(again.updatedAt)).toBeGreaterThan(Date.parse(updated.updatedAt));
      expect(again.createdAt).toBe(link.createdAt);
    });
  });

  describe('credentials', () => {
    it('stores encrypted credentials as sent and reports them through hasCredentials', async () => {
      const { api } = await withVault('creds');
      const plain = await api.createLink({ body: { url: 'https://creds.example/plain' } });
      const vaulted = await api.createLink({
        body: { url: 'https://creds.example/login', credentials: [credential('c1'), credential('c2')] },
      });
      expect(vaulted.credentials).toEqual([credential('c1'), credential('c2')]);
      expect((await api.getLink({ params: { id: vaulted.id } })).credentials).toEqual([
        credential('c1'),
        credential('c2'),
      ]);

      const withCreds = await api.listLinks({ query: { hasCredentials: 'true' } });
      expect(withCreds.data.map((l) => l.id)).toEqual([vaulted.id]);
      const without = await api.listLinks({ query: { hasCredentials: 'false' } });
      expect(without.data.map((l) => l.id)).toEqual([plain.id]);
      expect((await api.linkStats()).data.withCredentials).toBe(1);

      const added = await api.updateLink({ params: { id: plain.id }, body: { credentials: [credential('c9')] } });
      expect(added.credentials).toEqual([credential('c9')]);
      expect((await api.listLinks({ query: { hasCredentials: 'true' } })).total).toBe(2);

      const replaced = await api.updateLink({ params: { id: vaulted.id }, body: { credentials: [credential('c3')] } });
      expect(replaced.credentials).toEqual([credential('c3')]);
      const cleared = await api.updateLink({ params: { id: vaulted.id }, body: { credentials: [] } });
      expect(cleared.credentials).toEqual([]);
      const after = await api.listLinks({ query: { hasCredentials: 'true' } });
      expect(after.data.map((l) => l.id)).toEqual([plain.id]);
      expect((await api.linkStats()).data.withCredentials).toBe(1);
    });

    it('refuses credentials that are not {id, iv, ciphertext, v}', async () => {
      const { api, token } = await server.signUp('plaincreds');
      const link = await api.createLink({ body: { url: 'https://creds.example/refuse' } });
      const shapes: unknown[] = [
        { id: 'p1', username: 'alice', password: 'hunter2' },
        { ...credential('p2'), username: 'alice', password: 'hunter2' },
        { id: 'p3', iv: 'aXY=', ciphertext: '', v: 1 },
        { id: 'p4', iv: 'aXY=', ciphertext: 'Y2lwaGVy' },
        'alice:hunter2',
      ];
      for (const shape of shapes) {
        const create = await raw(server, 'POST', '/api/links', {
          token,
          body: JSON.stringify({ url: 'https://creds.example/new', credentials: [shape] }),
        });
        expect(create.status, JSON.stringify(shape)).toBe(400);
        expect(create.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
        const update = await raw(server, 'PUT', `/api/links/${link.id}`, {
          token,
          body: JSON.stringify({ credentials: [shape] }),
        });
        expect(update.status, JSON.stringify(shape)).toBe(400);
        expect(update.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
        expect(update.text).not.toContain('hunter2');
      }
      const plaintext = await raw(server, 'POST', '/api/links', {
        token,
        body: JSON.stringify({
          url: 'https://creds.example/new',
          credentials: [{ id: 'p1', username: 'alice', password: 'hunter2' }],
        }),
      });
      expect(Object.keys((plaintext.json() as { details: { fields: object } }).details.fields)[0]).toMatch(
        /^credentials/,
      );
      expect((await api.listLinks()).actualTotal).toBe(1);
      expect((await api.getLink({ params: { id: link.id } })).credentials).toEqual([]);
      const stored = await server.database.db.selectFrom('credentials').select('ciphertext').execute();
      expect(JSON.stringify(stored)).not.toContain('hunter2');
    });

    it('refuses two credentials with the same id in one link with a 400, not a 500', async () => {
      const { api } = await withVault('credids');
      const twice = [credential('same'), { ...credential('same'), ciphertext: 'b3RoZXI=' }];
      const created = await failure(
        api.createLink({ body: { url: 'https://creds.example/twice', credentials: twice } }),
      );
      expect([created.status, created.code, created.details]).toEqual([
        400,
        'VALIDATION_ERROR',
        { fields: { credentials: 'Each credential of a link needs a different id' } },
      ]);
      expect((await api.listLinks()).actualTotal).toBe(0);

      const link = await api.createLink({
        body: { url: 'https://creds.example/once', credentials: [credential('same')] },
      });
      const updated = await failure(api.updateLink({ params: { id: link.id }, body: { credentials: twice } }));
      expect([updated.status, updated.code]).toEqual([400, 'VALIDATION_ERROR']);
      expect((await api.getLink({ params: { id: link.id } })).credentials).toEqual([credential('same')]);
      // Ids only need to differ within one link.
      const other = await api.createLink({
        body: { url: 'https://creds.example/other', credentials: [credential('same')] },
      });
      expect(other.credentials).toEqual([credential('same')]);
    });
  });

  describe('delete', () => {
    it('answers 204, then 404, and removes the link with its tags and credentials', async () => {
      const { api, token } = await withVault('delete');
      const link = await api.createLink({
        body: { url: 'https://delete.example/', tags: ['gone'], credentials: [credential('d1')] },
      });
      const res = await raw(server, 'DELETE', `/api/links/${link.id}`, { token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const attempts = [
        () => api.getLink({ params: { id: link.id } }),
        () => api.updateLink({ params: { id: link.id }, body: { title: 'back' } }),
        () => api.deleteLink({ params: { id: link.id } }),
      ];
      for (const attempt of attempts) {
        const e = await failure(attempt());
        expect([e.status, e.code]).toEqual([404, 'NOT_FOUND']);
      }
      const { db } = server.database;
      expect(await db.selectFrom('link_tags').selectAll().where('link_id', '=', link.id).execute()).toEqual([]);
      expect(await db.selectFrom('credentials').selectAll().where('link_id', '=', link.id).execute()).toEqual([]);
      expect((await api.listLinks()).actualTotal).toBe(0);
      // The URL can be saved again.
      await api.createLink({ body: { url: 'https://delete.example/' } });
    });

    it('answers 404 for an id that never existed', async () => {
      const { api } = await server.signUp('missing');
      const e = await failure(api.getLink({ params: { id: '01900000-0000-7000-8000-000000000000' } }));
      expect([e.status, e.code]).toEqual([404, 'NOT_FOUND']);
    });
  });

  describe('isolation', () => {
    let alice: Awaited<ReturnType<TestServer['signUp']>>;
    let bob: Awaited<ReturnType<TestServer['signUp']>>;
    let secret: Link;

    beforeAll(async () => {
      alice = await withVault('alice');
      bob = await server.signUp('bob');
      secret = await alice.api.createLink({
        body: {
          url: 'https://alice.example/private',
          title: 'Alice private plans',
          category: 'AliceOnly',
          tags: ['alicetag'],
          isReadLater: true,
          credentials: [credential('a1')],
        },
      });
      await bob.api.createLink({ body: { url: 'https://bob.example/', title: 'Bob link', category: 'BobOnly' } });
    });

    it("answers 404 NOT_FOUND for another user's link, exactly as for a missing one", async () => {
      const missing = await failure(bob.api.getLink({ params: { id: '01900000-0000-7000-8000-000000000000' } }));
      const attempts = [
        () => bob.api.getLink({ params: { id: secret.id } }),
        () => bob.api.updateLink({ params: { id: secret.id }, body: { title: 'Mine now', isRead: true } }),
        () => bob.api.deleteLink({ params: { id: secret.id } }),
      ];
      for (const attempt of attempts) {
        const e = await failure(attempt());
        expect([e.status, e.code, e.message, e.details]).toEqual([404, 'NOT_FOUND', missing.message, missing.details]);
      }
      expect(await alice.api.getLink({ params: { id: secret.id } })).toEqual(secret);
    });

    it("never shows another user's links in list, search, categories or stats", async () => {
      const list = await bob.api.listLinks();
      expect(list.data.map((l) => l.title)).toEqual(['Bob link']);
      expect([list.total, list.actualTotal]).toEqual([1, 1]);
      for (const search of ['Alice', 'alice.example', '#alicetag', 'alicetag']) {
        const found = await bob.api.listLinks({ query: { search } });
        expect([found.total, found.data], search).toEqual([0, []]);
      }
      expect((await bob.api.listLinks({ query: { category: 'AliceOnly' } })).total).toBe(0);
      expect((await bob.api.listLinks({ query: { hasCredentials: 'true' } })).total).toBe(0);
      expect((await bob.api.linkCategories()).data).toEqual(['BobOnly']);
      expect((await bob.api.linkStats()).data).toEqual({
        totalLinks: 1,
        categories: 1,
        readLater: 0,
        read: 0,
        unread: 1,
        withCredentials: 0,
        topCategory: 'BobOnly',
        linksLast30Days: 1,
      });
      expect((await alice.api.linkCategories()).data).toEqual(['AliceOnly']);
    });

    it('requires a token for every link route', async () => {
      const paths: [string, string][] = [
        ['GET', '/api/links'],
        ['POST', '/api/links'],
        ['GET', '/api/links/categories'],
        ['GET', '/api/links/stats'],
        ['GET', `/api/links/${secret.id}`],
        ['PUT', `/api/links/${secret.id}`],
        ['DELETE', `/api/links/${secret.id}`],
      ];
      for (const [method, path] of paths) {
        const res = await raw(server, method, path, method === 'POST' || method === 'PUT' ? { body: '{}' } : {});
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.json()).toEqual({ error: Messages.authenticationRequired, code: 'UNAUTHENTICATED' });
      }
      expect(await alice.api.getLink({ params: { id: secret.id } })).toEqual(secret);
    });
  });

  describe('categories', () => {
    it('lists distinct categories alphabetically, without empty ones', async () => {
      const { api } = await server.signUp('categories');
      expect((await api.linkCategories()).data).toEqual([]);
      const categories = [
        'Research',
        'design',
        'Development',
        'Research',
        null,
        '',
        '   ',
        undefined,
        '  News   Today ',
      ];
      for (const [i, category] of categories.entries()) {
        await api.createLink({ body: { url: `https://cat.example/${i}`, category } });
      }
      expect((await api.linkCategories()).data).toEqual(['design', 'Development', 'News Today', 'Research']);
    });

    it('follows changes and deletions', async () => {
      const { api } = await server.signUp('catchanges');
      const a = await api.createLink({ body: { url: 'https://cat.example/a', category: 'Old' } });
      await api.createLink({ body: { url: 'https://cat.example/b', category: 'Kept' } });
      await api.updateLink({ params: { id: a.id }, body: { category: 'Renamed' } });
      expect((await api.linkCategories()).data).toEqual(['Kept', 'Renamed']);
      await api.deleteLink({ params: { id: a.id } });
      expect((await api.linkCategories()).data).toEqual(['Kept']);
    });
  });

  describe('stats', () => {
    it('answers zeros for a user without links', async () => {
      const { api } = await server.signUp('nostats');
      expect(await api.linkStats()).toEqual({
        success: true,
        data: {
          totalLinks: 0,
          categories: 0,
          readLater: 0,
          read: 0,
          unread: 0,
          withCredentials: 0,
          topCategory: null,
          linksLast30Days: 0,
        },
      });
    });

    it('counts totals, flags, categories and the last 30 days', async () => {
      const { api } = await withVault('stats');
      const make = (path: string, body: Partial<LinkCreateInput> = {}) =>
        api.createLink({ body: { url: `https://stats.example/${path}`, ...body } });
      await make('a', { category: 'Dev', isReadLater: true, credentials: [credential('s1')] });
      const b = await make('b', { category: 'Dev' });
      await api.updateLink({ params: { id: b.id }, body: { isRead: true } });
      await make('c', { category: 'Design' });
      await make('d', { isReadLater: true });
      server.clock.advance(31 * 86_400_000);
      const e = await make('e', { category: 'Dev' });
      await api.updateLink({ params: { id: e.id }, body: { isRead: true } });
      await make('f', { category: 'News' });

      expect((await api.linkStats()).data).toEqual({
        totalLinks: 6,
        categories: 3,
        readLater: 2,
        read: 2,
        unread: 4,
        withCredentials: 1,
        topCategory: 'Dev',
        linksLast30Days: 2,
      });

      // Exactly 30 days old still counts; a second later it does not.
      server.clock.advance(30 * 86_400_000);
      expect((await api.linkStats()).data.linksLast30Days).toBe(2);
      server.clock.advance(1_000);
      expect((await api.linkStats()).data.linksLast30Days).toBe(0);
    });

    it('breaks a tie for the top category alphabetically', async () => {
      const { api } = await server.signUp('toptie');
      for (const [i, category] of ['Zeta', 'Alpha', 'Zeta', 'Alpha', 'Mid'].entries()) {
        await api.createLink({ body: { url: `https://tie.example/${i}`, category } });
      }
      expect((await api.linkStats()).data.topCategory).toBe('Alpha');
    });
  });

  describe('link counter', () => {
    const owned = async (api: ApiClient) => (await api.listLinks({ query: { limit: 1 } })).actualTotal;

    it('follows creates, failed creates and deletes, per user', async () => {
      const a = await server.signUp('counter');
      const b = await server.signUp('counter');
      const ids: string[] = [];
      for (let i = 0; i < 4; i++)
        ids.push((await a.api.createLink({ body: { url: `https://count.example/${i}` } })).id);
      await b.api.createLink({ body: { url: 'https://count.example/0' } });
      await failure(a.api.createLink({ body: { url: 'https://count.example/1' } })); // duplicate
      await a.api.deleteLink({ params: { id: ids[0]! } });
      await failure(b.api.deleteLink({ params: { id: ids[1]! } })); // not b's
      expect(await owned(a.api)).toBe(3);
      expect(await owned(b.api)).toBe(1);
      expect((await a.api.subscriptionUsage()).totalLinks).toBe(3);
    });

    it('stays exact when links leave by cascade and when a user is deleted', async () => {
      const a = await server.signUp('cascade');
      await a.api.createLink({ body: { url: 'https://cascade.example/1' } });
      await a.api.createLink({ body: { url: 'https://cascade.example/2' } });
      const { db } = server.database;
      await db
        .deleteFrom('links')
        .where('user_id', '=', a.userId)
        .where('url', '=', 'https://cascade.example/1')
        .execute();
      const row = await db
        .selectFrom('users')
        .select('link_count')
        .where('id', '=', a.userId)
        .executeTakeFirstOrThrow();
      expect(Number(row.link_count)).toBe(1);
      await db.deleteFrom('users').where('id', '=', a.userId).execute();
      const left = await db.selectFrom('links').select('id').where('user_id', '=', a.userId).execute();
      expect(left).toEqual([]);
    });
  });
});
