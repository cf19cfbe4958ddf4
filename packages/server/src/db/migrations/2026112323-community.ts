import { sql, type Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Community safety and growth: reports (a member reports a user, a thread or a reply; the back office handles or
 * ignores them), invitation links (a code that puts a newcomer in a group, and who invited whom), and the captcha's
 * used solutions (each works once until it expires).
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('reports'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    /** The reported user (type 0), thread (1) or post (2): with user_id and type, one open report per target. */
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('thread_id', 'integer')
    .addColumn('post_id', 'integer')
    /** The reported user, or the author of the thread or post. */
    .addColumn('reported_user_id', 'integer')
    .addColumn('reason', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('handler_id', 'integer')
    .addColumn('handled_at', 'varchar(32)')
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // A reporter has at most one open report per target; once decided they may report it again.
  await db.schema
    .createIndex('reports_open_target')
    .on('reports')
    .columns(['user_id', 'type', 'target_id'])
    .unique()
    .where(sql.ref('status'), '=', 0)
    .execute();
  await db.schema.createIndex('reports_status_id').on('reports').columns(['status', 'id']).execute();

  await idColumn(db, db.schema.createTable('invites'))
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invited_users')
    .addColumn('user_id', 'integer', (c) => c.primaryKey())
    .addColumn('inviter_id', 'integer', (c) => c.notNull())
    .addColumn('invite_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invited_users_inviter')
    .on('invited_users')
    .columns(['inviter_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('captcha_uses')
    .addColumn('signature', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('captcha_uses_expires').on('captcha_uses').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('captcha_uses').execute();
  await db.schema.dropTable('invited_users').execute();
  await db.schema.dropTable('invites').execute();
  await db.schema.dropTable('reports').execute();
}
