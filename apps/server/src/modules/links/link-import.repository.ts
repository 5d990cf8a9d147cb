import { tagKey, type EncryptedCredential } from '@linkwise/contract';
import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import type { DB, NewLink } from '../../db/schema.js';
import { indexInBulk } from '../search-index/search-index.js';
import { ensureTags } from './link.repository.js';

/** One link of an import batch, already mapped and checked. */
export interface BulkLink {
  row: NewLink;
  tags: string[];
  credentials: EncryptedCredential[];
}

/** SQLite allows 32,766 bound values a statement; rows are cut so no statement comes near. */
const ROWS_PER_INSERT = 200;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Bulk SQL for imports: many links, their tags and credentials in a few statements. Runs inside the caller's transaction. */
export class LinkImportRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine,
  ) {}

  /** The user's links among these normalised URLs: key → id and the fields "fill empty" may fill. */
  async existing(userId: string, keys: string[]) {
    const found = new Map<
      string,
      {
        id: string;
        title: string;
        url: string;
        description: string;
        notes: string;
        category: string | null;
        created_at: number;
      }
    >();
    for (const part of chunks([...new Set(keys)], 500)) {
      const rows = await this.db
        .selectFrom('links')
        .select(['id', 'normalized_url', 'title', 'url', 'description', 'notes', 'category', 'created_at'])
        .where('user_id', '=', userId)
        .where('normalized_url', 'in', part)
        .execute();
      for (const r of rows) found.set(r.normalized_url, r);
    }
    return found;
  }

  /** Which of these ids are taken by any link (a restored id must stay unique). */
  async takenIds(ids: string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (const part of chunks(ids, 500)) {
      const rows = await this.db.selectFrom('links').select('id').where('id', 'in', part).execute();
      for (const r of rows) taken.add(r.id);
    }
    return taken;
  }

  async insert(userId: string, links: BulkLink[], now: number): Promise<void> {
    // The new links and their tags are indexed for search once, together, after they are written.
    await indexInBulk(
      this.db,
      this.engine,
      links.map((l) => l.row.id),
      async () => {
        for (const part of chunks(links, ROWS_PER_INSERT)) {
          await this.db
            .insertInto('links')
            .values(part.map((l) => l.row))
            .execute();
        }
        await this.attachTags(
          userId,
          links.filter((l) => l.tags.length > 0).map((l) => ({ linkId: l.row.id, tags: l.tags })),
          now,
        );
      },
    );
    const credentials = links.flatMap((l) =>
      l.credentials.map((c, position) => ({
        id: c.id,
        link_id: l.row.id,
        user_id: userId,
        iv: c.iv,
        ciphertext: c.ciphertext,
        v: c.v,
        position,
        created_at: now,
        updated_at: now,
      })),
    );
    for (const part of chunks(credentials, ROWS_PER_INSERT)) {
      await this.db.insertInto('credentials').values(part).execute();
    }
  }

  /** Creates the user's missing tags once for the whole batch, then links them in one insert per chunk. */
  async attachTags(userId: string, items: { linkId: string; tags: string[] }[], now: number): Promise<void> {
    if (items.length === 0) return;
    const idByKey = await ensureTags(
      this.db,
      userId,
      items.flatMap((i) => i.tags),
      now,
    );
    const rows = items.flatMap(({ linkId, tags }) =>
      tags.map((t, position) => ({ link_id: linkId, tag_id: idByKey.get(tagKey(t))!, position })),
    );
    for (const part of chunks(rows, ROWS_PER_INSERT)) {
      await this.db.insertInto('link_tags').values(part).execute();
    }
  }

  async hasTags(linkId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('link_tags')
      .select('link_id')
      .where('link_id', '=', linkId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async fill(
    userId: string,
    id: string,
    changes: Partial<Pick<NewLink, 'title' | 'description' | 'notes' | 'category' | 'updated_at'>>,
  ): Promise<void> {
    await this.db.updateTable('links').set(changes).where('id', '=', id).where('user_id', '=', userId).execute();
  }
}

/** Keyset pages of a user's links for exports and backups: every link, also those a downgrade hides. */
export class LinkExportRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The next `limit` links after (createdAt, id), oldest first; `category` undefined for all, null for uncategorised. */
  page(userId: string, after: { createdAt: number; id: string } | null, limit: number, category?: string | null) {
    let q = this.db.selectFrom('links').selectAll().where('user_id', '=', userId);
    if (category !== undefined)
      q = category === null ? q.where('category', 'is', null) : q.where('category', '=', category);
    if (after) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.createdAt, after.id)));
    return q.orderBy('created_at').orderBy('id').limit(limit).execute();
  }

  async categories(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('links')
      .select('category')
      .distinct()
      .where('user_id', '=', userId)
      .where('category', 'is not', null)
      .execute();
    return rows.map((r) => r.category ?? '').sort((a, b) => a.localeCompare(b, 'en'));
  }
}
