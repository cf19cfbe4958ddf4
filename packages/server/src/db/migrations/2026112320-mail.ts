import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * E-mail: a member's address (as typed, and lower-cased for a case-insensitive unique index; both null when none),
 * when its verification link was opened, and the one-use links mailed to members (verify an address, reset a
 * password): only a SHA-256 of each token is kept.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email', 'varchar(254)').execute();
  await db.schema.alterTable('users').addColumn('email_normalized', 'varchar(254)').execute();
  await db.schema.alterTable('users').addColumn('email_verified_at', 'varchar(32)').execute();
  // Several users without an address are fine: both databases let nulls repeat in a unique index.
  await db.schema.createIndex('users_email_normalized_uq').on('users').column('email_normalized').unique().execute();

  await idColumn(db, db.schema.createTable('email_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** 'verify' (the address becomes the user's) or 'reset' (a new password). */
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('email_tokens_user_idx')
    .on('email_tokens')
    .columns(['user_id', 'purpose', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_tokens').execute();
  await db.schema.dropIndex('users_email_normalized_uq').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
  await db.schema.alterTable('users').dropColumn('email_normalized').execute();
  await db.schema.alterTable('users').dropColumn('email').execute();
}
