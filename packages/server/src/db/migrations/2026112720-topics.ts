import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Topics (modules/topics): a `#name#` in a thread or a reply names one. `topics` holds the family's columns (content is
 * the name as first written) and `content_key`, the name folded for case-insensitive uniqueness (NFKC, lower case);
 * `thread_topic` links a thread to the topics its first post and its replies name.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('topics'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('content', 'varchar(100)', (c) => c.notNull())
    .addColumn('content_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('thread_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recommended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recommended_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('topics_content_key_unique').on('topics').column('content_key').unique().execute();
  // The hot list: most threads first.
  await db.schema.createIndex('topics_thread_count_idx').on('topics').columns(['thread_count', 'id']).execute();
  await db.schema
    .createTable('thread_topic')
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('thread_topic_pk', ['thread_id', 'topic_id'])
    .execute();
  await db.schema.createIndex('thread_topic_topic_idx').on('thread_topic').columns(['topic_id', 'thread_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('thread_topic').execute();
  await db.schema.dropTable('topics').execute();
}
