import type { Kysely } from 'kysely';

/*
 * Attempt counters shared by every app process (failed sign-ins per address and per account, sign-ups per address),
 * in the layout rate-limiter-flexible's SQLite and PostgreSQL stores read and write: key, points, expire (epoch ms).
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
