import type { Kysely } from 'kysely';

/*
 * The thread a member pins to the top of their profile (user/thread.stick, the family's thread_sticks): at most one
 * per member, so the member is the key. Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_thread_sticks')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // The thread lists ask "is this thread pinned" for a page of threads.
  await db.schema.createIndex('user_thread_sticks_thread_id').on('user_thread_sticks').column('thread_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_thread_sticks').execute();
}
