import type { Kysely } from 'kysely';

/*
 * Anonymous threads (thread.allowAnonymous): `threads.is_anonymous` (0/1) marks a thread whose first post others see
 * as 匿名用户 / Anonymous; the author and administrators still see who wrote it. Every existing thread stays named.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('threads')
    .addColumn('is_anonymous', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('threads').dropColumn('is_anonymous').execute();
}
