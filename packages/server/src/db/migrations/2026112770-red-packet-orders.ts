import type { Kysely } from 'kysely';

/*
 * A red packet paid through a provider (order type 9, modules/red-packets): `order_id` names the order that pays it,
 * or paid it; NULL for one paid from the wallet. Its `status` 2 (pending) means not paid yet. Immutable once on main:
 * later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('thread_red_packets')
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('thread_red_packets').dropColumn('order_id').execute();
}
