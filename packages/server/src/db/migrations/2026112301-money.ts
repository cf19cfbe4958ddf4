import { sql, type Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Money (docs/money.md): a wallet per user, the append-only ledger, orders, withdrawals, and what money buys on
 * threads (a price and a free part). Every amount is integer cents (bigint). The CHECK constraints are the last line:
 * the code moves money with conditional updates that cannot take a balance below zero, so a CHECK never fires in
 * normal work; if it ever did, the transaction fails whole and nothing is half-written.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('wallets')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
    .addColumn('available_cents', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`available_cents >= 0`),
    )
    .addColumn('frozen_cents', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`frozen_cents >= 0`),
    )
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pay_password_hash', 'varchar(255)', (c) => c.notNull().defaultTo(sql`''`))
    .addColumn('pay_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pay_locked_until', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('orders'))
    .addColumn('order_sn', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('payee_id', 'integer', (c) => c.references('users.id'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('author_amount_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('master_amount_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('thread_id', 'integer')
    .addColumn('group_id', 'integer')
    .addColumn('is_anonymous', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payment_type', 'integer')
    .addColumn('trade_no', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('paid_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('orders_thread_idx')
    .on('orders')
    .columns(['thread_id', 'type', 'status', 'user_id'])
    .execute();
  await db.schema.createIndex('orders_payee_idx').on('orders').columns(['payee_id', 'id']).execute();
  await db.schema.createIndex('orders_status_time_idx').on('orders').columns(['status', 'created_at']).execute();

  await idColumn(db, db.schema.createTable('wallet_cash'))
    .addColumn('cash_sn', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('apply_cents', 'bigint', (c) => c.notNull().check(sql`apply_cents > 0`))
    .addColumn('charge_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('receive_account', 'varchar(100)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(sql`''`))
    .addColumn('reviewer_id', 'integer')
    .addColumn('reviewed_at', 'varchar(32)')
    .addColumn('trade_no', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wallet_cash_user_idx').on('wallet_cash').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('wallet_cash_status_idx').on('wallet_cash').columns(['status', 'id']).execute();

  // The ledger: one row per change of a wallet, written with the change, never updated or deleted.
  await idColumn(db, db.schema.createTable('wallet_logs'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('change_available_cents', 'bigint', (c) => c.notNull())
    .addColumn('change_frozen_cents', 'bigint', (c) => c.notNull())
    .addColumn('available_after_cents', 'bigint', (c) => c.notNull())
    .addColumn('frozen_after_cents', 'bigint', (c) => c.notNull())
    .addColumn('change_type', 'integer', (c) => c.notNull())
    .addColumn('change_desc', 'varchar(255)', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('cash_id', 'integer', (c) => c.references('wallet_cash.id'))
    .addColumn('operator_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wallet_logs_user_idx').on('wallet_logs').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('wallet_logs_time_idx').on('wallet_logs').columns(['created_at']).execute();

  await db.schema
    .alterTable('threads')
    .addColumn('price_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('threads')
    .addColumn('free_words', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Paid joining (siteMode 'pay'): until when the member's paid joining lasts (null: not paid, or not needed).
  await db.schema.alterTable('users').addColumn('paid_until', 'varchar(32)').execute();
  await db.schema.alterTable('users').addColumn('paid_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('paid_at').execute();
  await db.schema.alterTable('users').dropColumn('paid_until').execute();
  await db.schema.alterTable('threads').dropColumn('free_words').execute();
  await db.schema.alterTable('threads').dropColumn('price_cents').execute();
  await db.schema.dropTable('wallet_logs').execute();
  await db.schema.dropTable('wallet_cash').execute();
  await db.schema.dropTable('orders').execute();
  await db.schema.dropTable('wallets').execute();
}
