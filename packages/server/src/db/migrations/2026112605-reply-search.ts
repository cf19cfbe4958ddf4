import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-helpers.js';

/*
 * The reply search index: the plain text of each reply and comment that everyone may see (approved, not deleted),
 * kept in step by the posts' writes (modules/search/reply-index.repository.ts), beside the thread index of
 * 2026112102-forum (title and first post) and built the same way: on SQLite an FTS5 table with the trigram
 * tokenizer (rowid = post id) whose `grams` column holds the CJK characters and character pairs of the text; on
 * PostgreSQL a table of the lower-cased text and a narrow table of (gram, post_id) rows.
 * The tables only: 2026112606 fills them from the existing posts, 2026112607 then indexes them on PostgreSQL (one
 * build of each index after the rows are in, instead of a million single inserts into it).
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema
      .createTable('post_search')
      .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
      .addColumn('content', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('post_search_grams')
      .addColumn('gram', 'text', (c) => c.notNull())
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .execute();
    return;
  }
  await sql`create virtual table post_search using fts5(content, grams, tokenize = 'trigram')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await db.schema.dropTable('post_search_grams').ifExists().execute();
  await db.schema.dropTable('post_search').ifExists().execute();
}
