import { sql, type Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import { FTS_COLUMNS, WORDS_TOKENIZER } from './schema.sqlite.js';

/*
 * The typo word lists (`link_words` on SQLite, `search_lexemes` on PostgreSQL) are shared by every
 * user and only grow while links are edited. When an account is deleted its words must go with it,
 * or another user could be offered one as a spelling suggestion: the account's words are read before
 * its rows go, and afterwards each one is dropped unless a remaining document still holds it.
 */

const BATCH = 200;
const batches = <T>(items: T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / BATCH) }, (_, i) => items.slice(i * BATCH, (i + 1) * BATCH));

/** The words the user's documents put in the shared word list. */
export async function wordsOfUser(db: Kysely<unknown>, engine: Engine, userId: string): Promise<string[]> {
  if (engine === 'postgres') {
    const rows = await sql<{ w: string }>`select distinct x as w from link_search s
      cross join search_lexemes_of(s.document) x where s.user_id = ${userId}`.execute(db);
    return rows.rows.map((r) => r.w);
  }
  const owner = `u${userId.replaceAll('-', '')}`;
  return withWordsIndex(db, sql`where owner = ${owner}`, async () => {
    const rows = await sql<{ term: string }>`select term from temp.forget_words_terms`.execute(db);
    return rows.rows.map((r) => r.term);
  });
}

/** Drops `words` from the shared word list unless a remaining document holds them (and, on SQLite, compacts the index). */
export async function forgetWords(db: Kysely<unknown>, engine: Engine, words: string[]): Promise<void> {
  if (engine === 'postgres') {
    if (words.length === 0) return;
    // One pass over the remaining documents finds which of the words they still hold (no index
    // answers "which documents hold this lexeme" for every lexeme of the list at once).
    await sql`delete from search_lexemes l where l.lexeme = any(${words}::text[])
      and l.lexeme not in (select distinct x from link_search s cross join search_lexemes_of(s.document) x
        where x = any(${words}::text[]))`.execute(db);
    return;
  }
  // Deleted documents stay in FTS5's segments until they are merged: merge them now.
  await sql`insert into link_fts(link_fts) values ('optimize')`.execute(db);
  for (const batch of batches(words)) {
    await sql`delete from link_words where word in (${sql.join(batch)})`.execute(db);
    // Documents sharing a stem with a forgotten word may still hold it as written: put those back.
    const match = batch.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ');
    await withWordsIndex(db, sql`where rowid in (select rowid from link_fts where link_fts match ${match})`, () =>
      sql`insert or ignore into link_words(word) select term from temp.forget_words_terms
        where term in (${sql.join(batch)})`.execute(db),
    );
  }
}

/** Runs `use` with `temp.forget_words_terms` listing the words of the documents `where` picks. */
async function withWordsIndex<T>(
  db: Kysely<unknown>,
  where: ReturnType<typeof sql>,
  use: () => Promise<T>,
): Promise<T> {
  await sql`create virtual table temp.forget_words using fts5(text, ${sql.raw(WORDS_TOKENIZER)})`.execute(db);
  try {
    await sql`insert into temp.forget_words(rowid, text)
      select rowid, ${sql.raw(FTS_COLUMNS.join(` || ' ' || `))} from link_fts_source ${where}`.execute(db);
    await sql`create virtual table temp.forget_words_terms using fts5vocab(temp, forget_words, 'row')`.execute(db);
    return await use();
  } finally {
    await sql`drop table if exists temp.forget_words_terms`.execute(db);
    await sql`drop table if exists temp.forget_words`.execute(db);
  }
}
