import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Web Push (issue 26, part 5; modules/push): the site's VAPID key pair (one row, made on the first start), the
 * members' browser subscriptions (an endpoint of their browser's push service and the keys that encrypt for it), and
 * each member's switches per kind of notice (absent: all on). Immutable once on main.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_vapid_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('public_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('private_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await idColumn(db, db.schema.createTable('push_subscriptions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'varchar(2000)', (c) => c.notNull().unique())
    .addColumn('p256dh', 'varchar(200)', (c) => c.notNull())
    .addColumn('auth', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_success_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();
  await db.schema
    .createTable('push_preferences')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('reply', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('mention', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('like', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('message', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('financial', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_preferences').execute();
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('push_vapid_keys').execute();
}
