import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Outgoing webhooks (modules/webhooks): the hooks an administrator set up (a URL, the secret that signs each body,
 * the events it hears as a JSON list, on or off), and their deliveries: one row per event and hook, with what was
 * sent, its status (pending, sending, delivered, failed), the attempts so far, when the next one is due (for a row
 * being sent: when its claim runs out), and the last answer (status, a short error, how long it took).
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('webhooks'))
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('secret', 'varchar(200)', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await idColumn(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull())
    .addColumn('event_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_id', 'integer')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)')
    .addColumn('response_status', 'integer')
    .addColumn('error', 'varchar(500)')
    .addColumn('duration_ms', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // A hook's recent deliveries, newest first.
  await db.schema
    .createIndex('webhook_deliveries_webhook_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();
  // One delivery per hook and domain event, however often the event reaches the subscriber (null event ids, the test
  // events, are distinct on both databases).
  await db.schema
    .createIndex('webhook_deliveries_event_unique')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'event_id'])
    .unique()
    .execute();
  // What is due: pending rows, and rows whose claim ran out (a process that stopped while sending).
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
