import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-helpers.js';

/*
 * Version counters that every write of the data behind a per-process cache raises, by trigger, in the writing
 * transaction: whoever writes (any app process, the back office, a script, SQL by hand), every process sees the new
 * number on its next request and drops what it had cached (core/cache-versions.ts).
 *
 * - `viewers`: who a session is and what they may do (modules/auth/viewer-cache.ts): sessions revoked, expired or
 *   deleted, a user's account columns (not the counters, last login or update time, which change on every post and
 *   sign-in and which the viewer does not use), group memberships, groups and their permissions.
 * - `settings`: the site settings (modules/settings/settings-cache.ts).
 *
 * A new column of `users` that the viewer must see at once needs a new migration that adds it to the trigger.
 * Immutable once on main: later changes go in a new migration.
 */

/** The account columns of `users` that a cached viewer carries. */
export const VIEWER_USER_COLUMNS = [
  'username',
  'username_normalized',
  'nickname',
  'password_hash',
  'avatar',
  'signature',
  'status',
  'reject_reason',
  'background',
  'likes_public',
  'locale',
  'paid_at',
  'paid_until',
  'email',
  'email_normalized',
  'email_verified_at',
  'mobile',
] as const;

/** [trigger name, counter, timing and event, table]. */
const TRIGGERS: [string, 'viewers' | 'settings', string, string][] = [
  ['cv_users_update', 'viewers', `update of ${VIEWER_USER_COLUMNS.join(', ')}`, 'users'],
  ['cv_users_delete', 'viewers', 'delete', 'users'],
  ['cv_tokens_update', 'viewers', 'update of revoked_at, expires_at, user_id', 'access_tokens'],
  ['cv_tokens_delete', 'viewers', 'delete', 'access_tokens'],
  ['cv_group_user_insert', 'viewers', 'insert', 'group_user'],
  ['cv_group_user_update', 'viewers', 'update', 'group_user'],
  ['cv_group_user_delete', 'viewers', 'delete', 'group_user'],
  ['cv_group_permission_insert', 'viewers', 'insert', 'group_permission'],
  ['cv_group_permission_update', 'viewers', 'update', 'group_permission'],
  ['cv_group_permission_delete', 'viewers', 'delete', 'group_permission'],
  ['cv_groups_insert', 'viewers', 'insert', 'groups'],
  ['cv_groups_update', 'viewers', 'update', 'groups'],
  ['cv_groups_delete', 'viewers', 'delete', 'groups'],
  ['cv_settings_insert', 'settings', 'insert', 'settings'],
  ['cv_settings_update', 'settings', 'update', 'settings'],
  ['cv_settings_delete', 'settings', 'delete', 'settings'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of ['viewers', 'settings']) {
    await sql`insert into cache_versions (name, version) values (${name}, 1) on conflict (name) do nothing`.execute(db);
  }
  if (isPostgres(db)) {
    await sql`create or replace function luntan_bump_cache_version() returns trigger language plpgsql as $$
      begin
        update cache_versions set version = version + 1 where name = tg_argv[0];
        return null;
      end $$`.execute(db);
    for (const [name, counter, event, table] of TRIGGERS) {
      // Once per statement: a statement touching many rows raises the counter once.
      await sql
        .raw(
          `create trigger ${name} after ${event} on ${table} for each statement ` +
            `execute function luntan_bump_cache_version('${counter}')`,
        )
        .execute(db);
    }
    return;
  }
  for (const [name, counter, event, table] of TRIGGERS) {
    await sql
      .raw(
        `create trigger ${name} after ${event} on ${table} for each row begin ` +
          `update cache_versions set version = version + 1 where name = '${counter}'; end`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, , , table] of TRIGGERS) {
    await sql
      .raw(isPostgres(db) ? `drop trigger if exists ${name} on ${table}` : `drop trigger if exists ${name}`)
      .execute(db);
  }
  if (isPostgres(db)) await sql`drop function if exists luntan_bump_cache_version()`.execute(db);
}
