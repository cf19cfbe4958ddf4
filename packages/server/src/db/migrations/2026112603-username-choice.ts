import type { Kysely } from 'kysely';

/*
 * users.username_generated: 1 while the username is one the site made up (a first SMS sign-in's `u_xxxxxxxx`, an
 * account made by an outside sign-in); such a member may choose their own username once (update.user), which sets
 * it to 0.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('username_generated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('username_generated').execute();
}
