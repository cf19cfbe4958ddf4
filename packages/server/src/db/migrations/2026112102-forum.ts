import { sql, type CreateIndexBuilder, type Kysely } from 'kysely';
import { idColumn, isPostgres } from '../migration-helpers.js';

/*
 * The forum: categories, threads, posts, likes, favourites, mentions, attachments, daily views, blocks, and the
 * search index. Immutable once on main: later changes go in a new migration.
 *
 * The search index `thread_search` holds the plain text of each thread (title + first post) and is kept in step by
 * the threads repository. On SQLite it is an FTS5 table with the trigram tokenizer (rowid = thread id), which finds
 * any run of three or more characters, a Chinese word inside an unspaced sentence included. On PostgreSQL it is a
 * plain table holding the text lower-cased, with pg_trgm GIN indexes that serve LIKE '%word%' (pg_trgm counts CJK
 * characters as word characters under a UTF-8 ctype). Both also hold `grams`, the CJK characters and character pairs
 * of the thread, which answer searches for one- and two-character Chinese words (no trigram there) from an index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('categories'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('thread_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('categories_parent_sort_idx').on('categories').columns(['parent_id', 'sort']).execute();

  await idColumn(db, db.schema.createTable('threads'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    /** Plain-text start of the first post, for lists (no join, no Markdown parsing per request). */
    .addColumn('summary', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    /** The first post (no foreign key: the two rows refer to each other and are written in one transaction). */
    .addColumn('first_post_id', 'integer')
    .addColumn('is_sticky', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_essence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_approved', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    /** Visible replies (comments on replies are counted in the reply's reply_count). */
    .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
    /** Likes of the first post. */
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('favorite_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_posted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_posted_user_id', 'integer')
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('deleted_user_id', 'integer')
    .execute();
  // The lists read only listed threads (not deleted, not drafts, approved): partial indexes hold just those, in
  // each list order, sticky ones apart (the lists read sticky threads first, then the others). The queries write
  // these three conditions as literals so that both databases can match them to the indexes.
  const listed = (b: CreateIndexBuilder) =>
    b.where(sql.ref('deleted_at'), 'is', null).where(sql.ref('is_draft'), '=', 0).where(sql.ref('is_approved'), '=', 1);
  for (const [name, column] of [
    ['created', 'created_at'],
    ['last_posted', 'last_posted_at'],
    ['updated', 'updated_at'],
  ] as const) {
    await listed(
      db.schema.createIndex(`threads_listed_${name}_idx`).on('threads').columns(['is_sticky', column, 'id']),
    ).execute();
  }
  await listed(
    db.schema
      .createIndex('threads_listed_category_idx')
      .on('threads')
      .columns(['category_id', 'is_sticky', 'created_at', 'id']),
  ).execute();
  // Counting a list reads this index alone: it holds every column the count filters on (the author for lists that
  // leave blocked authors out; the three listed conditions too, since SQLite checks them again on the columns).
  await listed(
    db.schema
      .createIndex('threads_listed_count_idx')
      .on('threads')
      .columns(['category_id', 'user_id', 'is_essence', 'is_draft', 'is_approved', 'deleted_at']),
  ).execute();
  await db.schema.createIndex('threads_user_created_idx').on('threads').columns(['user_id', 'created_at']).execute();

  await idColumn(db, db.schema.createTable('posts'))
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    /** For a comment: the reply it belongs to, and that reply's author. */
    .addColumn('reply_post_id', 'integer')
    .addColumn('reply_user_id', 'integer')
    /** For a comment answering another comment: that comment, and its author. */
    .addColumn('comment_post_id', 'integer')
    .addColumn('comment_user_id', 'integer')
    /** Markdown source, and its rendered, sanitised HTML (rendered once, on write). */
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_html', 'text', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_first', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_comment', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_approved', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    /** For a reply: its visible comments. */
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('deleted_user_id', 'integer')
    .execute();
  await db.schema
    .createIndex('posts_thread_idx')
    .on('posts')
    .columns(['thread_id', 'is_first', 'is_comment', 'created_at'])
    .execute();
  await db.schema.createIndex('posts_reply_idx').on('posts').columns(['reply_post_id', 'created_at']).execute();
  await db.schema.createIndex('posts_user_idx').on('posts').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('post_likes')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_likes_pk', ['post_id', 'user_id'])
    .execute();
  await db.schema.createIndex('post_likes_user_idx').on('post_likes').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('thread_favorites')
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('thread_favorites_pk', ['thread_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('thread_favorites_user_idx')
    .on('thread_favorites')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('post_mentions')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('post_mentions_pk', ['post_id', 'user_id'])
    .execute();
  await db.schema.createIndex('post_mentions_user_idx').on('post_mentions').column('user_id').execute();

  await idColumn(db, db.schema.createTable('attachments'))
    /** Random name of the stored files (also the public file name). */
    .addColumn('file_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('post_id', 'integer')
    /** The family's attachment type: 1 = image. */
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    /** Folder under DATA_DIR/uploads, e.g. attachments/2026/11. */
    .addColumn('file_dir', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('is_animated', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON: the display sizes generated at upload ([{name, width, height}]). */
    .addColumn('sizes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_user_idx').on('attachments').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('attachments_post_idx').on('attachments').column('post_id').execute();

  /** Views per thread per day (UTC YYYY-MM-DD): "hot" sums the last 7 days. */
  await db.schema
    .createTable('thread_views_daily')
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('thread_views_daily_pk', ['thread_id', 'day'])
    .execute();
  await db.schema.createIndex('thread_views_daily_day_idx').on('thread_views_daily').columns(['day']).execute();

  /** user_id blocked deny_user_id (the block API comes with the social issue). */
  await db.schema
    .createTable('user_denies')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('deny_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_denies_pk', ['user_id', 'deny_user_id'])
    .execute();
  await db.schema.createIndex('user_denies_deny_idx').on('user_denies').column('deny_user_id').execute();

  if (isPostgres(db)) {
    // A trusted extension since PostgreSQL 13: a database owner may create it.
    await sql`create extension if not exists pg_trgm`.execute(db);
    const ext = await sql<{ schema: string }>`
      select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`.execute(db);
    const opclass = sql.raw(`"${ext.rows[0]!.schema}".gin_trgm_ops`);
    await db.schema
      .createTable('thread_search')
      .addColumn('thread_id', 'integer', (c) => c.primaryKey().references('threads.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .execute();
    // One row per CJK character or pair per thread: the key reads the newest threads holding a gram, index only.
    await db.schema
      .createTable('thread_search_grams')
      .addColumn('gram', 'text', (c) => c.notNull())
      .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('thread_search_grams_pk', ['gram', 'thread_id'])
      .execute();
    await db.schema
      .createIndex('thread_search_grams_thread_idx')
      .on('thread_search_grams')
      .column('thread_id')
      .execute();
    await sql`create index thread_search_title_trgm on thread_search using gin (title ${opclass})`.execute(db);
    await sql`create index thread_search_content_trgm on thread_search using gin (content ${opclass})`.execute(db);
    await sql`create index users_username_trgm on users using gin (username ${opclass})`.execute(db);
    await sql`create index users_nickname_trgm on users using gin (nickname ${opclass})`.execute(db);
  } else {
    await sql`create virtual table thread_search using fts5(title, content, grams, tokenize = 'trigram')`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists users_username_trgm`.execute(db);
    await sql`drop index if exists users_nickname_trgm`.execute(db);
  }
  for (const table of [
    ...(isPostgres(db) ? ['thread_search_grams'] : []),
    'thread_search',
    'user_denies',
    'thread_views_daily',
    'attachments',
    'post_mentions',
    'thread_favorites',
    'post_likes',
    'posts',
    'threads',
    'categories',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
