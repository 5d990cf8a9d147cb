import { sql, type Kysely } from 'kysely';
import { tagKey, type TagSummary } from '@linkwise/contract';
import type { DB } from '../../db/schema.js';
import { ensureTags, withinCutoff, type Cutoff } from './link.repository.js';

/** Flags a bulk action sets on several links at once. */
export type BulkFlags = Partial<{ is_read: 0 | 1; is_read_later: 0 | 1 }>;

/** Tags, categories, several links at once and the usage counts: the SQL of library management. */
export class LibraryRepository {
  constructor(private readonly db: Kysely<DB>) {}

  with(db: Kysely<DB>): LibraryRepository {
    return new LibraryRepository(db);
  }

  /** Of `ids`, the ones the user owns (others are skipped, never revealed). */
  async ownedIds(userId: string, ids: string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('links')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      out.push(...rows.map((r) => r.id));
    }
    return out;
  }

  async setFlags(userId: string, ids: string[], flags: BulkFlags, now: number): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      await this.db
        .updateTable('links')
        .set({ ...flags, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
    }
  }

  async setCategory(userId: string, ids: string[], category: string | null, now: number): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      await this.db
        .updateTable('links')
        .set({ category, category_by_analysis: 0, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
    }
  }

  async deleteLinks(userId: string, ids: string[]): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const result = await this.db
        .deleteFrom('links')
        .where('user_id', '=', userId)
        .where('id', 'in', ids.slice(i, i + 500))
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    return deleted;
  }

  /**
   * Adds tags to the links that lack them, after their own, as many as fit under `maxPerLink` (one
   * statement per tag and 500 links, not a rewrite of each link's tags: each `link_tags` row written
   * costs the search index a trigger). Only names some link takes become tags. Answers how many links
   * now carry every name and how many had no room for all of them.
   */
  async addTags(
    userId: string,
    ids: string[],
    names: string[],
    maxPerLink: number,
    now: number,
  ): Promise<{ tagged: number; limited: number }> {
    if (names.length === 0) return { tagged: 0, limited: 0 };
    const keys = names.map(tagKey);
    const taken = new Set<string>();
    let limited = 0;
    for (const { count, has } of (await this.tagRoom(userId, ids, keys)).values()) {
      const missing = keys.filter((key) => !has.has(key));
      const fits = missing.slice(0, Math.max(0, maxPerLink - count));
      if (fits.length < missing.length) limited += 1;
      for (const key of fits) taken.add(key);
    }
    const used = names.filter((name) => taken.has(tagKey(name)));
    const idByKey = used.length > 0 ? await ensureTags(this.db, userId, used, now) : new Map<string, string>();
    for (const name of used) {
      const tagId = idByKey.get(tagKey(name));
      if (!tagId) continue;
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        await sql`
          insert into link_tags (link_id, tag_id, position)
          select l.id, ${tagId}, coalesce((select max(p.position) + 1 from link_tags p where p.link_id = l.id), 0)
          from links l
          where l.user_id = ${userId} and l.id in (${sql.join(chunk)})
            and not exists (select 1 from link_tags t where t.link_id = l.id and t.tag_id = ${tagId})
            and (select count(*) from link_tags c where c.link_id = l.id) < ${maxPerLink}`.execute(this.db);
      }
    }
    return { tagged: ids.length - limited, limited };
  }

  /**
   * For each link: how many tags it has and which of `keys` among them. Counts and the few matches
   * only, not every tag name of every link (a bulk action may cover a whole library).
   */
  private async tagRoom(
    userId: string,
    ids: string[],
    keys: string[],
  ): Promise<Map<string, { count: number; has: Set<string> }>> {
    const out = new Map(ids.map((id) => [id, { count: 0, has: new Set<string>() }]));
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const counts = await this.db
        .selectFrom('link_tags')
        .select(['link_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('link_id', 'in', chunk)
        .groupBy('link_id')
        .execute();
      for (const r of counts) out.get(r.link_id)!.count = Number(r.n);
      const present = await this.db
        .selectFrom('link_tags as lt')
        .innerJoin('tags as t', 't.id', 'lt.tag_id')
        .select(['lt.link_id', 't.name_key'])
        .where('lt.link_id', 'in', chunk)
        .where('t.user_id', '=', userId)
        .where('t.name_key', 'in', keys)
        .execute();
      for (const r of present) out.get(r.link_id)!.has.add(r.name_key);
    }
    return out;
  }

  /** Takes tags (compared as tags are) off the links. */
  async removeTags(userId: string, ids: string[], names: string[]): Promise<void> {
    const keys = [...new Set(names.map(tagKey))];
    if (keys.length === 0) return;
    for (let i = 0; i < ids.length; i += 500) {
      await this.db
        .deleteFrom('link_tags')
        .where('link_id', 'in', ids.slice(i, i + 500))
        .where('tag_id', 'in', (eb) =>
          eb.selectFrom('tags').select('id').where('user_id', '=', userId).where('name_key', 'in', keys),
        )
        .execute();
    }
  }

  async touch(userId: string, ids: string[], now: number): Promise<void> {
    await this.setFlags(userId, ids, {}, now);
  }

  /**
   * The user's tags, most used first, with how many links carry each. With a downgrade's cutoff only
   * viewable links count, and a tag that only hidden links carry is left out until they are back.
   */
  async tags(userId: string, cutoff: Cutoff | null = null): Promise<TagSummary[]> {
    const rows = await this.db
      .selectFrom('tags as t')
      .leftJoin('link_tags as lt', 'lt.tag_id', 't.id')
      // Only a cutoff needs the links themselves; the plain count reads the join table alone.
      .$if(cutoff !== null, (q) => q.leftJoin('links as l', 'l.id', 'lt.link_id'))
      .select([
        't.id',
        't.name',
        cutoff
          ? sql<number>`count(case when ${withinCutoff(cutoff, 'l')} then 1 end)`.as('n')
          : sql<number>`count(lt.link_id)`.as('n'),
        (eb) => eb.fn.count<number>('lt.link_id').as('all'),
      ])
      .where('t.user_id', '=', userId)
      .groupBy(['t.id', 't.name'])
      .execute();
    return rows
      .filter((r) => Number(r.n) > 0 || Number(r.all) === 0)
      .map((r) => ({ id: r.id, name: r.name, count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  }

  findTag(userId: string, id: string): Promise<{ id: string; name: string } | undefined> {
    return this.db
      .selectFrom('tags')
      .select(['id', 'name'])
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findTagByKey(userId: string, key: string): Promise<{ id: string; name: string } | undefined> {
    return this.db
      .selectFrom('tags')
      .select(['id', 'name'])
      .where('user_id', '=', userId)
      .where('name_key', '=', key)
      .executeTakeFirst();
  }

  async linksWithTag(tagId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('link_tags').select('link_id').where('tag_id', '=', tagId).execute();
    return rows.map((r) => r.link_id);
  }

  /**
   * The search index follows `link_tags` rows, not tag names: the tag's rows are taken off and put
   * back around the rename so each link is indexed under its new name.
   */
  async renameTag(userId: string, id: string, name: string): Promise<void> {
    const rows = await this.db.selectFrom('link_tags').selectAll().where('tag_id', '=', id).execute();
    await this.db.deleteFrom('link_tags').where('tag_id', '=', id).execute();
    await this.db
      .updateTable('tags')
      .set({ name, name_key: tagKey(name) })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .insertInto('link_tags')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  /**
   * Moves `from`'s links onto `into` (a link carrying both keeps one, at the earlier position),
   * then deletes `from`.
   */
  async mergeTag(userId: string, from: string, into: string): Promise<void> {
    // Links with both: keep the earlier position on `into` before `from`'s rows go.
    await sql`
      update link_tags set position = (
        select min(o.position) from link_tags o where o.link_id = link_tags.link_id and o.tag_id in (${from}, ${into})
      )
      where tag_id = ${into} and link_id in (select link_id from link_tags where tag_id = ${from})`.execute(this.db);
    await this.db
      .insertInto('link_tags')
      .columns(['link_id', 'tag_id', 'position'])
      .expression((eb) =>
        eb
          .selectFrom('link_tags as s')
          .select(['s.link_id', eb.val(into).as('tag_id'), 's.position'])
          .where('s.tag_id', '=', from)
          .where((w) =>
            w.not(
              w.exists(
                w
                  .selectFrom('link_tags as t')
                  .select('t.link_id')
                  .whereRef('t.link_id', '=', 's.link_id')
                  .where('t.tag_id', '=', into),
              ),
            ),
          ),
      )
      .execute();
    await this.deleteTag(userId, from);
  }

  async deleteTag(userId: string, id: string): Promise<void> {
    // Its link_tags rows first, explicitly, so the index triggers see each link lose it.
    await this.db.deleteFrom('link_tags').where('tag_id', '=', id).execute();
    await this.db.deleteFrom('tags').where('user_id', '=', userId).where('id', '=', id).execute();
  }

  /** Renames the category on the user's links (only the viewable ones, with a downgrade's cutoff). */
  async renameCategory(userId: string, from: string, to: string, now: number, cutoff: Cutoff | null): Promise<number> {
    let update = this.db
      .updateTable('links')
      .set({ category: to, updated_at: now })
      .where('user_id', '=', userId)
      .where('category', '=', from);
    if (cutoff) update = update.where(withinCutoff(cutoff));
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** One open of a link; false when the link is not the user's. */
  async countClick(userId: string, linkId: string, now: number): Promise<boolean> {
    const owned = await this.db
      .selectFrom('links')
      .select('id')
      .where('id', '=', linkId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!owned) return false;
    await this.db
      .insertInto('link_clicks')
      .values({ link_id: linkId, user_id: userId, count: 1, last_clicked_at: now })
      .onConflict((oc) => oc.column('link_id').doUpdateSet({ count: sql`link_clicks.count + 1`, last_clicked_at: now }))
      .execute();
    return true;
  }

  async countSearch(userId: string, month: string): Promise<void> {
    await this.db
      .insertInto('search_counts')
      .values({ user_id: userId, month, count: 1 })
      .onConflict((oc) => oc.columns(['user_id', 'month']).doUpdateSet({ count: sql`search_counts.count + 1` }))
      .execute();
  }

  async usage(userId: string, month: string): Promise<{ totalClicks: number; searchesThisMonth: number }> {
    const clicks = await this.db
      .selectFrom('link_clicks')
      .select((eb) => eb.fn.sum<number>('count').as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const searches = await this.db
      .selectFrom('search_counts')
      .select('count')
      .where('user_id', '=', userId)
      .where('month', '=', month)
      .executeTakeFirst();
    return { totalClicks: Number(clicks?.n ?? 0), searchesThisMonth: Number(searches?.count ?? 0) };
  }
}
