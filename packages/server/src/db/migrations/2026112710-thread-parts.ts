import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * A thread's parts (modules/thread-parts), the family's `thread_tom`: one row per part a thread holds, of a type
 * numbered as the family numbers them (104 goods, 109 vote, ...), with what the part keeps as JSON (`value`) and, for
 * parts that can be paid separately, which of its items are (`price_ids`, a JSON list). One part of each type per
 * thread. Parts with state of their own (votes, red packets, bounties) keep it in tables of their own as well.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('thread_parts'))
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('price_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('thread_parts_thread_type_unique')
    .on('thread_parts')
    .columns(['thread_id', 'type'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('thread_parts').execute();
}
