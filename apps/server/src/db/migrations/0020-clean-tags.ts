import { cleanTag, tagKey } from '@linkwise/contract';
import { sql, type Kysely } from 'kysely';

interface TagRow {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
}

const PAGE = 2000;

/**
 * Tags saved before tags dropped invisible characters (zero-width spaces, BOMs) kept them in their
 * name and key, so `#tag` could not find them and a later save of the same word made a second tag
 * that looks identical. Each such tag takes its clean name; where the user already has that tag,
 * it is merged into it; a tag with nothing visible goes. Link rows move by delete and insert, so
 * the search index's triggers see each link's new tag (as a rename does).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } = await sql<TagRow>`
      select id, user_id, name, name_key from tags where id > ${after} order by id limit ${PAGE}`.execute(db);
    for (const tag of rows) {
      const name = cleanTag(tag.name);
      const key = tagKey(name);
      if (name === tag.name && key === tag.name_key) continue;
      const { rows: same } = await sql<{ id: string }>`
        select id from tags where user_id = ${tag.user_id} and name_key = ${key} and id <> ${tag.id}`.execute(db);
      const into = same[0]?.id;
      if (!name) await dropTag(db, tag.id);
      else if (into) await mergeTag(db, tag.id, into);
      else await renameTag(db, tag.id, name, key);
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

async function dropTag(db: Kysely<unknown>, id: string): Promise<void> {
  await sql`delete from link_tags where tag_id = ${id}`.execute(db);
  await sql`delete from tags where id = ${id}`.execute(db);
}

async function mergeTag(db: Kysely<unknown>, from: string, into: string): Promise<void> {
  // A link carrying both keeps one, at the earlier of the two positions.
  await sql`
    update link_tags set position = (
      select min(o.position) from link_tags o where o.link_id = link_tags.link_id and o.tag_id in (${from}, ${into})
    )
    where tag_id = ${into} and link_id in (select link_id from link_tags where tag_id = ${from})`.execute(db);
  await sql`
    insert into link_tags (link_id, tag_id, position)
    select s.link_id, ${into}, s.position from link_tags s
     where s.tag_id = ${from}
       and not exists (select 1 from link_tags t where t.link_id = s.link_id and t.tag_id = ${into})`.execute(db);
  await dropTag(db, from);
}

async function renameTag(db: Kysely<unknown>, id: string, name: string, key: string): Promise<void> {
  const { rows } = await sql<{ link_id: string; position: number }>`
    select link_id, position from link_tags where tag_id = ${id}`.execute(db);
  await sql`delete from link_tags where tag_id = ${id}`.execute(db);
  await sql`update tags set name = ${name}, name_key = ${key} where id = ${id}`.execute(db);
  for (let i = 0; i < rows.length; i += 500) {
    const values = rows.slice(i, i + 500).map((r) => sql`(${r.link_id}, ${id}, ${r.position})`);
    await sql`insert into link_tags (link_id, tag_id, position) values ${sql.join(values)}`.execute(db);
  }
}
