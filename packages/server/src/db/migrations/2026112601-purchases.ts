import { sql, type Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * One purchase per member and thing, as a rule of the database: `purchases` has one row per member and thing bought
 * (today a paid thread: the order type 3 and the thread's id), written in the transaction that settles the order. A
 * second payment for the same thing cannot insert its row however the payments interleave, on either database.
 *
 * `payment_receipts` records each payment a provider reported (its name and transaction number, once): a callback
 * delivered again is recognised by it, and money that arrives for an order that cannot take it (paid already,
 * bought already) is returned to the payer's wallet exactly once.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('purchases')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    /** What kind of thing (the order type that buys it). */
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('thing_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('purchases_pk', ['user_id', 'type', 'thing_id'])
    .execute();
  await db.schema.createIndex('purchases_thing_idx').on('purchases').columns(['type', 'thing_id']).execute();

  await idColumn(db, db.schema.createTable('payment_receipts'))
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('trade_no', 'varchar(64)', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    /** 1: it paid the order; 2: it was returned to the payer's wallet. */
    .addColumn('outcome', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('payment_receipts_trade_uq', ['provider', 'trade_no'])
    .execute();
  await db.schema.createIndex('payment_receipts_order_idx').on('payment_receipts').columns(['order_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_receipts').execute();
  await db.schema.dropTable('purchases').execute();
}
