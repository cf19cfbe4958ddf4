import type { Kysely } from 'kysely';

/*
 * How many times a thread was shared (thread.share), as the family counts it on the thread (share_count).
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('threads')
    .addColumn('share_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('threads').dropColumn('share_count').execute();
}
