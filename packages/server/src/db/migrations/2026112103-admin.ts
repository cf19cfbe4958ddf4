import { sql, type Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * The back office: stop words, the version counters that tell every app process when to rebuild a cache, sign-in
 * fields and their answers, notification templates, and indexes for the review queue.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  /** One row per word; one action per content type: {IGNORE}, {MOD}, {BANNED} or {REPLACE} (with `replacement`). */
  await idColumn(db, db.schema.createTable('stop_words'))
    .addColumn('find', 'varchar(200)', (c) => c.notNull())
    /** The word lower-cased: words are unique without regard to case. */
    .addColumn('find_normalized', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('replacement', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('ugc', 'varchar(16)', (c) => c.notNull().defaultTo('{IGNORE}'))
    .addColumn('username', 'varchar(16)', (c) => c.notNull().defaultTo('{IGNORE}'))
    .addColumn('signature', 'varchar(16)', (c) => c.notNull().defaultTo('{IGNORE}'))
    .addColumn('dialog', 'varchar(16)', (c) => c.notNull().defaultTo('{IGNORE}'))
    .addColumn('nickname', 'varchar(16)', (c) => c.notNull().defaultTo('{IGNORE}'))
    .addColumn('user_id', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  /** A counter per cached thing (stop words...), raised in the transaction that changes it. */
  await db.schema
    .createTable('cache_versions')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  /** The extra fields a new user fills in (admin side). */
  await idColumn(db, db.schema.createTable('signin_fields'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    /** 0 single line, 1 multi-line, 2 radio, 3 checkbox, 4 image, 5 attachment. */
    .addColumn('type', 'integer', (c) => c.notNull())
    /** JSON: the options of a radio or checkbox field ({"options":[{"value":"..."}]}). */
    .addColumn('fields_ext', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fields_desc', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    /** -1 off, 1 on. */
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  /** A user's answers; the field's name, type and options are copied so that later edits keep old answers readable. */
  await idColumn(db, db.schema.createTable('user_signin_fields'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('field_id', 'integer', (c) => c.notNull().references('signin_fields.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('fields_ext', 'text', (c) => c.notNull().defaultTo(''))
    /** The answer: text, or JSON for a checkbox (an array of option values). */
    .addColumn('value', 'text', (c) => c.notNull())
    /** 0 discarded (answered again), 1 pending, 2 rejected, 3 approved. */
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    /** Why it was rejected. */
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_signin_fields_user_idx')
    .on('user_signin_fields')
    .columns(['user_id', 'status'])
    .execute();

  /** One template per notification type and channel (0 in-site, 1 WeChat, 2 SMS, 3 WeCom, 4 mini-program). */
  await idColumn(db, db.schema.createTable('notification_tpls'))
    .addColumn('type_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('title', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    /** JSON: the placeholders the content may use ({"{username}": "用户名", ...}). */
    .addColumn('vars', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('notification_tpls_type_uq', ['type_name', 'type'])
    .execute();

  // The review queue reads held content (is_approved 0, or 2 for ignored), newest first.
  // Partial: held content only. A full index on is_approved would tempt SQLite's planner (no statistics) away from
  // the list indexes for every public list (`is_approved = 1`), sorting 100,000 rows per home page.
  for (const table of ['threads', 'posts']) {
    await db.schema
      .createIndex(`${table}_review_idx`)
      .on(table)
      .columns(['is_approved', 'created_at'])
      .where(sql.ref('is_approved'), '<>', 1)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_review_idx').execute();
  await db.schema.dropIndex('threads_review_idx').execute();
  for (const table of ['notification_tpls', 'user_signin_fields', 'signin_fields', 'cache_versions', 'stop_words']) {
    await db.schema.dropTable(table).execute();
  }
}
