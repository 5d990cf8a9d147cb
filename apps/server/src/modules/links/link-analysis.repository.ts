import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AnalysisFailure } from '@linkwise/contract';
import type { DB } from '../../db/schema.js';

/** What the background analysis may write; each field is applied only where the user left it empty. */
export interface Enrichment {
  /** Replaces the title only while it is still the host placeholder `placeholderTitle`. */
  title: string | null;
  placeholderTitle: string;
  description: string | null;
  category: string | null;
  /** The runner-up, kept with the category when this analysis is the one that fills it in. */
  otherCategory: string | null;
  aiDescription: string | null;
  favicon: string | null;
  /** The icon itself; kept from an earlier analysis when this one found none. */
  faviconData: string | null;
}

/** A link's analysis as the links module applies it: facts, page text and status (vectors: embeddings). */
export class LinkAnalysisRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The same repository inside a caller's transaction. */
  with(db: Kysely<DB>): LinkAnalysisRepository {
    return new LinkAnalysisRepository(db);
  }

  /** The user's categories and tags, most used first (the vocabulary analysis prefers). */
  async vocabulary(userId: string): Promise<{ categories: string[]; tags: string[] }> {
    const categories = await this.db
      .selectFrom('links')
      .select(['category', (eb) => eb.fn.countAll<number>().as('n')])
      .where('user_id', '=', userId)
      .where('category', 'is not', null)
      .groupBy('category')
      .orderBy('n', 'desc')
      .limit(200)
      .execute();
    const tags = await this.db
      .selectFrom('tags as t')
      .leftJoin('link_tags as lt', 'lt.tag_id', 't.id')
      .select(['t.name', (eb) => eb.fn.count<number>('lt.link_id').as('n')])
      .where('t.user_id', '=', userId)
      .groupBy(['t.id', 't.name'])
      .orderBy('n', 'desc')
      .limit(500)
      .execute();
    return {
      categories: categories.map((c) => c.category ?? '').filter(Boolean),
      tags: tags.map((t) => t.name),
    };
  }

  /** The category of each of the user's links in `ids` that has one, whether the user chose it, and the link's title. */
  async categoriesOf(
    userId: string,
    ids: string[],
  ): Promise<Map<string, { category: string; confirmed: boolean; title: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('links')
      .select(['id', 'category', 'category_by_analysis', 'title'])
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .where('category', 'is not', null)
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        { category: r.category ?? '', confirmed: Number(r.category_by_analysis) === 0, title: r.title },
      ]),
    );
  }

  /**
   * Fills empty fields in one statement, each guarded by its own "still empty" condition, so a
   * user edit that lands while the page is being analysed is never overwritten.
   */
  async applyEnrichment(userId: string, linkId: string, e: Enrichment, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('links')
      .set({
        ...(e.title && {
          title: sql<string>`case when title = ${e.placeholderTitle} then ${e.title} else title end`,
        }),
        ...(e.description && {
          description: sql<string>`case when description = '' then ${e.description} else description end`,
        }),
        ...(e.category && {
          category: sql<string>`coalesce(category, ${e.category})`,
          category_by_analysis: sql<0 | 1>`case when category is null then 1 else category_by_analysis end`,
          category_other: sql<
            string | null
          >`case when category is null then cast(${e.otherCategory} as text) else category_other end`,
        }),
        ai_description: e.aiDescription,
        ...(e.favicon && { favicon: e.favicon }),
        ...(e.faviconData && { favicon_data: e.faviconData }),
        updated_at: now,
      })
      .where('id', '=', linkId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The analysis outcome; a failure keeps its reason for the card, success clears the last one. */
  async setStatus(
    userId: string,
    linkId: string,
    status: 'done' | 'failed',
    failure: AnalysisFailure | null = null,
  ): Promise<void> {
    await this.db
      .updateTable('links')
      .set({
        analysis_status: status,
        analysis_error: failure?.reason ?? null,
        analysis_error_status: failure?.status ?? null,
      })
      .where('id', '=', linkId)
      .where('user_id', '=', userId)
      .execute();
  }

  async savePage(linkId: string, text: string, language: string | null, now: number): Promise<void> {
    const row = {
      link_id: linkId,
      text,
      language,
      content_hash: createHash('sha256').update(text).digest('hex'),
      fetched_at: now,
    };
    await this.db
      .insertInto('page_contents')
      .values(row)
      .onConflict((oc) =>
        oc.column('link_id').doUpdateSet({ text, language, content_hash: row.content_hash, fetched_at: now }),
      )
      .execute();
  }

  /** Ids of all the user's links, for "re-analyse all". */
  async linkIds(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('links').select('id').where('user_id', '=', userId).execute();
    return rows.map((r) => r.id);
  }

  /** Marks the links pending (their jobs are queued in the same transaction). */
  async markPending(userId: string, linkIds: string[], now: number): Promise<void> {
    for (let i = 0; i < linkIds.length; i += 500) {
      await this.db
        .updateTable('links')
        .set({
          analysis_status: 'pending',
          analysis_error: null,
          analysis_error_status: null,
          analysis_started_at: now,
        })
        .where('user_id', '=', userId)
        .where('id', 'in', linkIds.slice(i, i + 500))
        .execute();
    }
  }
}
