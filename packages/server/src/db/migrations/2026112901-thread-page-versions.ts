import type { Kysely } from 'kysely';

/*
 * A counter per thread that its kept pages carry in their key (core/page-cache.ts): a write that touched only a few
 * threads raises theirs, so the other threads' kept pages stay. Kept apart from `cache_versions`, which every request
 * reads whole: a thread page reads its own row by key. A thread without a row is at 0. Immutable once on main: later
 * changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('thread_page_versions')
    .addColumn('thread_id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('thread_page_versions').execute();
}
