import { sql, type Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Backups (modules/backups): one row per archive made or being made, by the back office, the daily schedule or
 * `npm run backup`. `status` is running, done or failed; at most one row is running at a time (the partial unique
 * index: a second backup asked for meanwhile is refused, in any process). A running row's `heartbeat_at` moves while
 * it works: a row whose heartbeat stopped (its process died) no longer holds the lock. `location` says where the
 * archive is (disk: `path` on the machine that made it; bucket: the key under the object storage), `manifest` is the
 * archive's manifest.json. Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('backups'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('origin', 'varchar(16)', (c) => c.notNull())
    .addColumn('location', 'varchar(16)', (c) => c.notNull())
    .addColumn('path', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('manifest', 'text')
    .addColumn('error', 'varchar(1000)')
    .addColumn('user_id', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('heartbeat_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute();
  // The lock: one running backup per forum.
  await sql`create unique index backups_one_running on backups (status) where status = 'running'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('backups').execute();
}
