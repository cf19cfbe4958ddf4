import type { Kysely } from 'kysely';

/*
 * Notifications made from events: what a notice is about (thread, post, the reply a comment belongs to), who acted,
 * and a subject key per type (`liked:post:12`, `replied:post:40`, `followed`): likes and follows of one subject
 * merge into one unread notice for a while, a reply or mention is told once. Indexes for the message centre's lists
 * (all, or one type, newest first) and for finding a subject's notice; (user_id, read_at) exists already.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('thread_id', 'integer').execute();
  await db.schema.alterTable('notifications').addColumn('post_id', 'integer').execute();
  await db.schema.alterTable('notifications').addColumn('reply_post_id', 'integer').execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('from_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('notifications').addColumn('subject_key', 'varchar(64)').execute();
  await db.schema.createIndex('notifications_user_list_idx').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('notifications_user_type_idx')
    .on('notifications')
    .columns(['user_id', 'type', 'id'])
    .execute();
  await db.schema
    .createIndex('notifications_user_subject_idx')
    .on('notifications')
    .columns(['user_id', 'subject_key', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('notifications_user_subject_idx').execute();
  await db.schema.dropIndex('notifications_user_type_idx').execute();
  await db.schema.dropIndex('notifications_user_list_idx').execute();
  for (const column of ['subject_key', 'from_user_id', 'reply_post_id', 'post_id', 'thread_id']) {
    await db.schema.alterTable('notifications').dropColumn(column).execute();
  }
}
