import type { Kysely } from 'kysely';

/*
 * A paid thread's free part as Discuz! Q means `freeWords`: the fraction (0..1) of its body everyone reads. The old
 * `free_words` (a character count) stays for a rollback and is no longer read; 2026112798 fills the new column.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('threads')
    .addColumn('free_words_fraction', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('threads').dropColumn('free_words_fraction').execute();
}
