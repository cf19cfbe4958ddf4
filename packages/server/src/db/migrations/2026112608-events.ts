import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Domain events (core/events): the outbox of what happened, written in the transaction of the change, and each
 * subscriber's delivery of each event. A delivery row is claimed by pushing its next_attempt_at past now with a
 * conditional update (one process wins), finished with done_at, or put off with the error and a later attempt.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('domain_events'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    // When it may be delivered: its creation, or later for a due event (an unpaid order's expiry).
    .addColumn('due_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('event_deliveries')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('domain_events.id').onDelete('cascade'))
    .addColumn('subscriber', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // The event's due time at first; while claimed, the end of the claim; after a failure, the next try.
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('done_at', 'varchar(32)')
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('event_deliveries_pk', ['event_id', 'subscriber'])
    .execute();
  // What the dispatcher reads: the open deliveries in order of their next attempt.
  await db.schema
    .createIndex('event_deliveries_open')
    .on('event_deliveries')
    .columns(['done_at', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_deliveries').ifExists().execute();
  await db.schema.dropTable('domain_events').ifExists().execute();
}
