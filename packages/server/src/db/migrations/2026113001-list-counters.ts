import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-helpers.js';

/*
 * Two more version counters raised by trigger in the writing transaction (as in 2026112401-cache-triggers), for what
 * the thread lists keep in each process (modules/threads/kept-lists.ts, modules/categories/kept-categories.ts):
 *
 * - `categories`: any write to `categories` (a name, an order, a permission's category, and the listed-thread
 *   counters that every new, moved or deleted thread moves);
 * - `denies`: any write to `user_denies` (who blocked whom: a member who blocked nobody is served the kept lists).
 *
 * Immutable once on main: later changes go in a new migration.
 */

/** [trigger name, counter, event, table]. */
const TRIGGERS: [string, 'categories' | 'denies', string, string][] = [
  ['cv_categories_insert', 'categories', 'insert', 'categories'],
  ['cv_categories_update', 'categories', 'update', 'categories'],
  ['cv_categories_delete', 'categories', 'delete', 'categories'],
  ['cv_user_denies_insert', 'denies', 'insert', 'user_denies'],
  ['cv_user_denies_update', 'denies', 'update', 'user_denies'],
  ['cv_user_denies_delete', 'denies', 'delete', 'user_denies'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of ['categories', 'denies']) {
    await sql`insert into cache_versions (name, version) values (${name}, 1) on conflict (name) do nothing`.execute(db);
  }
  for (const [name, counter, event, table] of TRIGGERS) {
    // PostgreSQL: once per statement (luntan_bump_cache_version, 2026112401); SQLite has row triggers only.
    const body = isPostgres(db)
      ? `for each statement execute function luntan_bump_cache_version('${counter}')`
      : `for each row begin update cache_versions set version = version + 1 where name = '${counter}'; end`;
    await sql.raw(`create trigger ${name} after ${event} on ${table} ${body}`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, , , table] of TRIGGERS) {
    await sql
      .raw(isPostgres(db) ? `drop trigger if exists ${name} on ${table}` : `drop trigger if exists ${name}`)
      .execute(db);
  }
  await sql`delete from cache_versions where name in ('categories', 'denies')`.execute(db);
}
