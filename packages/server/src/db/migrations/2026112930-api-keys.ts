import { sql, type Kysely } from 'kysely';
import { idColumn, isPostgres } from '../migration-helpers.js';

/*
 * API keys (issue 26, part 4; access/api-keys.repository.ts): an administrator's key for a program, sent as
 * `Authorization: Bearer lt_…`. Kept as the SHA-256 of the key (the key itself is shown once), with its first
 * characters to recognise it, a scope (read, write, admin), the member it acts as (`user_id`: the one named, or the
 * administrator who made it), its last use, and when it was revoked. Revoking (or deleting) raises the `viewers`
 * counter, so no process serves a revoked key from its viewer cache. Immutable once on main.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('api_keys'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  if (isPostgres(db)) {
    await sql`create trigger cv_api_keys_update after update of revoked_at, user_id, scope on api_keys for each statement execute function luntan_bump_cache_version('viewers')`.execute(
      db,
    );
    await sql`create trigger cv_api_keys_delete after delete on api_keys for each statement execute function luntan_bump_cache_version('viewers')`.execute(
      db,
    );
    return;
  }
  await sql`create trigger cv_api_keys_update after update of revoked_at, user_id, scope on api_keys for each row begin update cache_versions set version = version + 1 where name = 'viewers'; end`.execute(
    db,
  );
  await sql`create trigger cv_api_keys_delete after delete on api_keys for each row begin update cache_versions set version = version + 1 where name = 'viewers'; end`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
