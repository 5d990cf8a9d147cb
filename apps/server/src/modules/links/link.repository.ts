import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { tagKey, type EncryptedCredential, type LinkListQuery, type LinkStats } from '@linkwise/contract';
import type { Engine } from '../../db/database.js';
import type { DB, LinkRow, NewLink } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { tagMatches, textMatches } from '../search-index/text-query.js';

/** The oldest-first position up to which a downgraded user's links stay viewable. */
export interface Cutoff {
  createdAt: number;
  id: string;
}

/**
 * The downgrade rule, the one definition of it: a link is viewable when (created_at, id) comes no
 * later than the cutoff's. In SQL over any alias of `links`, and in code for rows already in memory.
 */
export function withinCutoff(cutoff: Cutoff, links = 'links'): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${links}.created_at`)}, ${sql.ref(`${links}.id`)}) <= (${cutoff.createdAt}, ${cutoff.id})`;
}

export function isWithinCutoff(cutoff: Cutoff | null, createdAt: number, id: string): boolean {
  return !cutoff || createdAt < cutoff.createdAt || (createdAt === cutoff.createdAt && id <= cutoff.id);
}

export type LinkFilters = Pick<LinkListQuery, 'category' | 'isRead' | 'isReadLater' | 'hasCredentials' | 'search'>;
type Sort = Pick<LinkListQuery, 'sortBy' | 'sortOrder'>;

export interface HydratedLink {
  row: LinkRow;
  tags: string[];
  credentials: EncryptedCredential[];
}

type LinksQuery = SelectQueryBuilder<DB, 'links', object>;

/** Links, their tags and their (encrypted) credentials. The only place link SQL lives. */
/** Rows per statement when creating or looking up many tags (well under both engines' parameter limits). */
const TAGS_PER_STATEMENT = 500;

/**
 * Creates the user's tags among `names` that do not exist yet (matched as tags are, by key) and
 * answers every name's tag id by key. The one way links, bulk actions and imports get tag ids.
 */
export async function ensureTags(
  db: Kysely<DB>,
  userId: string,
  names: string[],
  now: number,
): Promise<Map<string, string>> {
  const byKey = new Map<string, string>();
  for (const name of names) if (!byKey.has(tagKey(name))) byKey.set(tagKey(name), name);
  const keys = [...byKey.keys()];
  const idByKey = new Map<string, string>();
  for (let i = 0; i < keys.length; i += TAGS_PER_STATEMENT) {
    const part = keys.slice(i, i + TAGS_PER_STATEMENT);
    await db
      .insertInto('tags')
      .values(
        part.map((key) => ({ id: newId(), user_id: userId, name: byKey.get(key)!, name_key: key, created_at: now })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'name_key']).doNothing())
      .execute();
    const rows = await db
      .selectFrom('tags')
      .select(['id', 'name_key'])
      .where('user_id', '=', userId)
      .where('name_key', 'in', part)
      .execute();
    for (const r of rows) idByKey.set(r.name_key, r.id);
  }
  return idByKey;
}

export class LinkRepository {
  constructor(
    private readonly db: Kysely<DB>,
    readonly engine: Engine,
  ) {}

  /** The connection this repository runs on (a transaction's, inside `transaction`): for other repositories and the job queue to join it. */
  get connection(): Kysely<DB> {
    return this.db;
  }

  /** Runs `fn` in one transaction with a repository bound to it. */
  transaction<T>(fn: (repo: LinkRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new LinkRepository(trx, this.engine)));
  }

  /**
   * Serialises writers of one user's links for the rest of the transaction, so two concurrent
   * creates cannot both pass the plan-limit check. SQLite transactions are already serial.
   */
  async lockUser(userId: string): Promise<void> {
    if (this.engine === 'postgres') {
      await this.db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    }
  }

  /** How many links the user owns: a counter the database keeps exact (migration 0002). */
  async countAll(userId: string): Promise<number> {
    const row = await this.db.selectFrom('users').select('link_count').where('id', '=', userId).executeTakeFirst();
    return Number(row?.link_count ?? 0);
  }

  /** The `limit`-th oldest link, or null when the user has no more than `limit` links. */
  async cutoff(userId: string, limit: number): Promise<Cutoff | null> {
    const row = await this.db
      .selectFrom('links')
      .select(['created_at', 'id'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(1)
      .offset(limit - 1)
      .executeTakeFirst();
    if (!row) return null;
    const beyond = await this.db
      .selectFrom('links')
      .select('id')
      .where('user_id', '=', userId)
      .where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(row.created_at, row.id)))
      .limit(1)
      .executeTakeFirst();
    return beyond ? { createdAt: row.created_at, id: row.id } : null;
  }

  findIdByDuplicateKey(userId: string, key: string): Promise<{ id: string } | undefined> {
    return this.db
      .selectFrom('links')
      .select('id')
      .where('user_id', '=', userId)
      .where('normalized_url', '=', key)
      .executeTakeFirst();
  }

  findOwned(userId: string, id: string): Promise<LinkRow | undefined> {
    return this.db
      .selectFrom('links')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async insert(link: NewLink): Promise<void> {
    await this.db.insertInto('links').values(link).execute();
  }

  /** Changes one of the user's links; false when it no longer exists (deleted meanwhile). */
  async update(
    userId: string,
    id: string,
    changes: Partial<Omit<NewLink, 'id' | 'user_id' | 'url' | 'normalized_url'>>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('links')
      .set(changes)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('links')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async tagCount(linkId: string): Promise<number> {
    const row = await this.db
      .selectFrom('link_tags')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('link_id', '=', linkId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Replaces a link's tags, creating the user's tags that do not exist yet (matched case-insensitively). */
  async setTags(userId: string, linkId: string, tags: string[], now: number): Promise<void> {
    await this.db.deleteFrom('link_tags').where('link_id', '=', linkId).execute();
    if (tags.length === 0) return;
    const wanted = tags.map((name) => ({ name, key: tagKey(name) }));
    const idByKey = await ensureTags(this.db, userId, tags, now);
    await this.db
      .insertInto('link_tags')
      .values(wanted.map((t, position) => ({ link_id: linkId, tag_id: idByKey.get(t.key) ?? '', position })))
      .execute();
  }

  async setCredentials(userId: string, linkId: string, credentials: EncryptedCredential[], now: number): Promise<void> {
    await this.db.deleteFrom('credentials').where('link_id', '=', linkId).execute();
    if (credentials.length > 0) {
      await this.db
        .insertInto('credentials')
        .values(
          credentials.map((c, position) => ({
            id: c.id,
            link_id: linkId,
            user_id: userId,
            iv: c.iv,
            ciphertext: c.ciphertext,
            v: c.v,
            position,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    await this.db
      .updateTable('links')
      .set({ has_credentials: credentials.length > 0 ? 1 : 0 })
      .where('id', '=', linkId)
      .execute();
  }

  /** Attaches tags and credentials to rows with two queries, whatever the number of rows. */
  async hydrate(rows: LinkRow[]): Promise<HydratedLink[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const tagRows = await this.db
      .selectFrom('link_tags as lt')
      .innerJoin('tags as t', 't.id', 'lt.tag_id')
      .select(['lt.link_id', 't.name'])
      .where('lt.link_id', 'in', ids)
      .orderBy('lt.link_id')
      .orderBy('lt.position')
      .execute();
    const withCredentials = rows.filter((r) => r.has_credentials === 1).map((r) => r.id);
    const credentialRows =
      withCredentials.length === 0
        ? []
        : await this.db
            .selectFrom('credentials')
            .select(['link_id', 'id', 'iv', 'ciphertext', 'v'])
            .where('link_id', 'in', withCredentials)
            .orderBy('link_id')
            .orderBy('position')
            .execute();
    const tags = new Map<string, string[]>();
    for (const t of tagRows) tags.set(t.link_id, [...(tags.get(t.link_id) ?? []), t.name]);
    const creds = new Map<string, EncryptedCredential[]>();
    for (const c of credentialRows) {
      creds.set(c.link_id, [...(creds.get(c.link_id) ?? []), { id: c.id, iv: c.iv, ciphertext: c.ciphertext, v: c.v }]);
    }
    return rows.map((row) => ({ row, tags: tags.get(row.id) ?? [], credentials: creds.get(row.id) ?? [] }));
  }

  private visible(q: LinksQuery, userId: string, cutoff: Cutoff | null): LinksQuery {
    return this.limitToCutoff(q.where('links.user_id', '=', userId), cutoff);
  }

  private limitToCutoff(q: LinksQuery, cutoff: Cutoff | null): LinksQuery {
    return cutoff ? q.where(withinCutoff(cutoff)) : q;
  }

  private filtered(q: LinksQuery, userId: string, f: LinkFilters): LinksQuery {
    let out = q;
    if (f.category) out = out.where('links.category', '=', f.category);
    if (f.isRead !== undefined) out = out.where('links.is_read', '=', f.isRead ? 1 : 0);
    if (f.isReadLater !== undefined) out = out.where('links.is_read_later', '=', f.isReadLater ? 1 : 0);
    if (f.hasCredentials !== undefined) out = out.where('links.has_credentials', '=', f.hasCredentials ? 1 : 0);
    const term = f.search?.trim();
    if (term) {
      if (term.startsWith('#')) {
        // The condition search's `#tag` uses: driven from the tag's rows.
        out = out.where(tagMatches(userId, tagKey(term)));
      } else {
        // The full-text matcher the search endpoint uses (stemming, prefix of the last word).
        out = out.where(textMatches(this.engine, userId, term));
      }
    }
    return out;
  }

  private sorted(q: LinksQuery, { sortBy, sortOrder }: Sort): LinksQuery {
    const dir = sortOrder;
    const newest = (qq: LinksQuery) => qq.orderBy('links.created_at', 'desc').orderBy('links.id', 'desc');
    switch (sortBy) {
      case 'createdAt':
        return q.orderBy('links.created_at', dir).orderBy('links.id', dir);
      case 'updatedAt':
        return newest(q.orderBy('links.updated_at', dir));
      case 'title':
        return newest(q.orderBy('links.title_key', dir));
      case 'isRead':
        return newest(q.orderBy('links.is_read', dir));
      case 'isReadLater':
        return newest(q.orderBy('links.is_read_later', dir));
      case 'smart':
        return newest(q.orderBy('links.smart_score', dir));
      case 'relevance':
        // Relevance needs a query; a plain list falls back to newest.
        return newest(q);
    }
  }

  /**
   * The user's viewable links among `ids` (search results), in no particular order: one
   * primary-key lookup per id. SQLite keeps no statistics here and chose the user's index instead,
   * reading all 100k entries of a large user to find 50 rows (16 ms against 0.5 ms); the unary plus
   * keeps `user_id` out of its index choice.
   */
  async findVisible(userId: string, cutoff: Cutoff | null, ids: string[]): Promise<LinkRow[]> {
    if (ids.length === 0) return [];
    const owner = this.engine === 'sqlite' ? sql<string>`+links.user_id` : sql<string>`links.user_id`;
    return this.limitToCutoff(this.db.selectFrom('links').where(owner, '=', userId), cutoff)
      .selectAll('links')
      .where('links.id', 'in', ids)
      .execute();
  }

  /** One page of the user's viewable links matching the filters. */
  async page(userId: string, cutoff: Cutoff | null, query: LinkListQuery): Promise<LinkRow[]> {
    const base = this.filtered(this.visible(this.db.selectFrom('links'), userId, cutoff), userId, query);
    return this.sorted(base, query)
      .selectAll('links')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
  }

  async countMatching(userId: string, cutoff: Cutoff | null, filters: LinkFilters): Promise<number> {
    const row = await this.filtered(this.visible(this.db.selectFrom('links'), userId, cutoff), userId, filters)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async categories(userId: string, cutoff: Cutoff | null): Promise<string[]> {
    const rows = await this.visible(this.db.selectFrom('links'), userId, cutoff)
      .select('links.category')
      .distinct()
      .where('links.category', 'is not', null)
      .execute();
    return rows
      .map((r) => r.category ?? '')
      .filter(Boolean)
      .sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
  }

  async stats(userId: string, cutoff: Cutoff | null, since: number): Promise<LinkStats> {
    const totals = await this.visible(this.db.selectFrom('links'), userId, cutoff)
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>('links.is_read_later').as('readLater'),
        eb.fn.sum<number>('links.is_read').as('read'),
        eb.fn.sum<number>('links.has_credentials').as('withCredentials'),
        eb.fn.count<number>('links.category').distinct().as('categories'),
        eb.fn.sum<number>(eb.case().when('links.created_at', '>=', since).then(1).else(0).end()).as('recent'),
      ])
      .executeTakeFirstOrThrow();
    const top = await this.visible(this.db.selectFrom('links'), userId, cutoff)
      .select(['links.category', (eb) => eb.fn.countAll<number>().as('n')])
      .where('links.category', 'is not', null)
      .groupBy('links.category')
      .orderBy('n', 'desc')
      .orderBy('links.category', 'asc')
      .limit(1)
      .executeTakeFirst();
    const n = (v: unknown) => Number(v ?? 0);
    const total = n(totals.total);
    return {
      totalLinks: total,
      categories: n(totals.categories),
      readLater: n(totals.readLater),
      read: n(totals.read),
      unread: total - n(totals.read),
      withCredentials: n(totals.withCredentials),
      topCategory: top?.category ?? null,
      linksLast30Days: n(totals.recent),
    };
  }

  /** Deletes every credential of the user and clears the links' flag (a vault reset). How many were deleted. */
  async deleteAllCredentials(userId: string, now: number): Promise<number> {
    const deleted = await this.db.deleteFrom('credentials').where('user_id', '=', userId).executeTakeFirst();
    await this.db
      .updateTable('links')
      .set({ has_credentials: 0, updated_at: now })
      .where('user_id', '=', userId)
      .where('has_credentials', '=', 1)
      .execute();
    return Number(deleted.numDeletedRows);
  }
}
