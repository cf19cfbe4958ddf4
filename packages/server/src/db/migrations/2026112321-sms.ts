import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Phones and SMS codes: a member's bound mobile number (unique; null when none), and the codes sent by SMS, kept
 * hashed, with their tries, when they were used and by whom (a `verify` code used by a member is the proof of their
 * current number that sms.rebind asks for, spent once).
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('mobile', 'varchar(20)').execute();
  // Unique where set: many members may have none (null is never equal to null, on both databases).
  await db.schema.createIndex('users_mobile_unique').on('users').column('mobile').unique().execute();
  await idColumn(db, db.schema.createTable('sms_codes'))
    .addColumn('mobile', 'varchar(20)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('salt', 'varchar(32)', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('used_by', 'integer')
    .addColumn('spent_at', 'varchar(32)')
    .execute();
  // The newest code of a number and purpose.
  await db.schema
    .createIndex('sms_codes_mobile_type_idx')
    .on('sms_codes')
    .columns(['mobile', 'type', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sms_codes').execute();
  await db.schema.dropIndex('users_mobile_unique').execute();
  await db.schema.alterTable('users').dropColumn('mobile').execute();
}
