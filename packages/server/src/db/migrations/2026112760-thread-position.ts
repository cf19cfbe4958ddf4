import type { Kysely } from 'kysely';

/*
 * Where a thread was written (thread.insertPosition), on the thread as the family keeps it: its coordinates in
 * degrees (null when the thread has no position), the place's name (`location`) and its address. One column per
 * statement: SQLite adds one column per ALTER TABLE. Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('threads').addColumn('longitude', 'double precision').execute();
  await db.schema.alterTable('threads').addColumn('latitude', 'double precision').execute();
  await db.schema
    .alterTable('threads')
    .addColumn('address', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('threads')
    .addColumn('location', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['location', 'address', 'latitude', 'longitude']) {
    await db.schema.alterTable('threads').dropColumn(column).execute();
  }
}
