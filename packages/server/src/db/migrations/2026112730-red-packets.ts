import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Red packets (part 106, modules/red-packets), the family's `thread_red_packets`: one per thread, with its rule,
 * condition and what is left; and its packets (`thread_red_packet_shares`), split when it is made, each claimed by at
 * most one member, and a member claims at most one per thread (unique thread and user; unclaimed ones hold NULL).
 * Amounts in cents. Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('thread_red_packets'))
    .addColumn('thread_id', 'integer', (c) => c.notNull().unique().references('threads.id').onDelete('cascade'))
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('rule', 'integer', (c) => c.notNull())
    .addColumn('condition', 'integer', (c) => c.notNull())
    .addColumn('likenum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('content', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('money_cents', 'integer', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('remain_cents', 'integer', (c) => c.notNull())
    .addColumn('remain_number', 'integer', (c) => c.notNull())
    .addColumn('returned_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await idColumn(db, db.schema.createTable('thread_red_packet_shares'))
    .addColumn('red_packet_id', 'integer', (c) => c.notNull().references('thread_red_packets.id').onDelete('cascade'))
    .addColumn('thread_id', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('post_id', 'integer')
    .addColumn('received_at', 'varchar(32)')
    .addColumn('seen_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('thread_red_packet_shares_thread_user_unique')
    .on('thread_red_packet_shares')
    .columns(['thread_id', 'user_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('thread_red_packet_shares_packet_seq')
    .on('thread_red_packet_shares')
    .columns(['red_packet_id', 'seq'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('thread_red_packet_shares').execute();
  await db.schema.dropTable('thread_red_packets').execute();
}
