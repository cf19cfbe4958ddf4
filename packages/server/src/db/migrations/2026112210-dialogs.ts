import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Private messages: a dialog between two members (one per pair: low_user_id < high_user_id), its messages, and each
 * member's side of it: what they have read, what they deleted for themselves.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('dialogs'))
    .addColumn('low_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('high_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('last_message_id', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dialogs_pair_idx')
    .on('dialogs')
    .columns(['low_user_id', 'high_user_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('dialog_members')
    .addColumn('dialog_id', 'integer', (c) => c.notNull().references('dialogs.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The last message this member has read. */
    .addColumn('read_message_id', 'integer', (c) => c.notNull().defaultTo(0))
    /** Messages up to this one were deleted by this member (for them only). */
    .addColumn('cleared_message_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('dialog_members_pk', ['dialog_id', 'user_id'])
    .execute();
  await db.schema.createIndex('dialog_members_user_idx').on('dialog_members').columns(['user_id']).execute();

  await idColumn(db, db.schema.createTable('dialog_messages'))
    .addColumn('dialog_id', 'integer', (c) => c.notNull().references('dialogs.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message_text', 'text', (c) => c.notNull())
    .addColumn('image_url', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('attachment_id', 'integer')
    /** 0: held by a {MOD} stop word until approved; only its sender sees it. */
    .addColumn('is_approved', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dialog_messages_dialog_idx')
    .on('dialog_messages')
    .columns(['dialog_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dialog_messages').execute();
  await db.schema.dropTable('dialog_members').execute();
  await db.schema.dropTable('dialogs').execute();
}
