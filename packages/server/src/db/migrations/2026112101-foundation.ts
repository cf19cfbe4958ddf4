import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/* Immutable once on main: later changes go in a new migration. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('users'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('username_normalized', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('nickname', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('avatar', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('signature', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reject_reason', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('thread_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('liked_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('follow_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fans_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('register_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_login_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_login_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_status_idx').on('users').column('status').execute();
  await db.schema.createIndex('users_nickname_idx').on('users').column('nickname').execute();

  await idColumn(db, db.schema.createTable('groups'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_display', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fee_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scale', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_subordinate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_commission', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('group_user')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'varchar(32)')
    .addPrimaryKeyConstraint('group_user_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('group_user_user_idx').on('group_user').column('user_id').execute();

  await db.schema
    .createTable('group_permission')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('permission', 'varchar(150)', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_permission_pk', ['group_id', 'permission'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('tag', 'varchar(50)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('settings_pk', ['key', 'tag'])
    .execute();

  await idColumn(db, db.schema.createTable('access_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('access_tokens_user_idx').on('access_tokens').column('user_id').execute();

  await idColumn(db, db.schema.createTable('notifications'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('category', 'varchar(32)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('read_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_user_unread_idx')
    .on('notifications')
    .columns(['user_id', 'read_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'notifications',
    'access_tokens',
    'settings',
    'group_permission',
    'group_user',
    'groups',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
