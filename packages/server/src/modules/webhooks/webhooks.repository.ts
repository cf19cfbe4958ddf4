import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { DB, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.js';

/** All SQL of outgoing webhooks and their deliveries. */

export function listWebhooks(db: Kysely<DB>) {
  return db
    .selectFrom('webhooks')
    .selectAll('webhooks')
    .select((eb) =>
      eb
        .selectFrom('webhookDeliveries as d')
        .select('d.status')
        .whereRef('d.webhookId', '=', 'webhooks.id')
        .orderBy('d.id', 'desc')
        .limit(1)
        .as('lastStatus'),
    )
    .orderBy('id')
    .execute();
}

export function findWebhook(db: Kysely<DB>, id: number) {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The enabled hooks (the caller picks those that hear an event). */
export function enabledWebhooks(db: Kysely<DB>) {
  return db.selectFrom('webhooks').selectAll().where('enabled', '=', 1).execute();
}

export async function insertWebhook(db: Kysely<DB>, row: Insertable<WebhooksTable>): Promise<number> {
  const res = await db.insertInto('webhooks').values(row).returning('id').executeTakeFirstOrThrow();
  return res.id;
}

export async function updateWebhook(db: Kysely<DB>, id: number, changes: Updateable<WebhooksTable>): Promise<boolean> {
  const res = await db.updateTable('webhooks').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteWebhook(db: Kysely<DB>, id: number): Promise<boolean> {
  // Deliveries first: SQLite runs without the cascade when foreign keys are off for a moment (migrations).
  await db.deleteFrom('webhookDeliveries').where('webhookId', '=', id).execute();
  const res = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Inserts a delivery; undefined when the hook has one for this event already (the event was heard again). */
export async function insertDelivery(
  db: Kysely<DB>,
  row: Insertable<WebhookDeliveriesTable>,
): Promise<number | undefined> {
  const res = await db
    .insertInto('webhookDeliveries')
    .values(row)
    .onConflict((oc) => oc.columns(['webhookId', 'eventId']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return res?.id;
}

export function listDeliveries(db: Kysely<DB>, webhookId: number, limit: number) {
  return db
    .selectFrom('webhookDeliveries')
    .selectAll()
    .where('webhookId', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Finished deliveries of a hook beyond its newest `keep` rows go (pending ones stay until they finish). */
export async function pruneDeliveries(db: Kysely<DB>, webhookId: number, keep: number): Promise<void> {
  const edge = await db
    .selectFrom('webhookDeliveries')
    .select('id')
    .where('webhookId', '=', webhookId)
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst();
  if (!edge) return;
  await db
    .deleteFrom('webhookDeliveries')
    .where('webhookId', '=', webhookId)
    .where('id', '<', edge.id)
    .where('status', 'in', ['delivered', 'failed'])
    .execute();
}

/** Ids of deliveries due at `now`: pending ones whose time came, and claims that ran out. */
export async function dueDeliveryIds(db: Kysely<DB>, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('webhookDeliveries')
    .select('id')
    .where('status', 'in', ['pending', 'sending'])
    .where('nextAttemptAt', '<=', now)
    .orderBy('nextAttemptAt')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Claims a due delivery for one attempt: a conditional update, so of two processes only one gets it. The claim lasts
 * until `leaseUntil`; a process that stops while sending leaves the row to be claimed again after it.
 */
export async function claimDelivery(db: Kysely<DB>, id: number, now: string, leaseUntil: string) {
  const res = await db
    .updateTable('webhookDeliveries')
    .set({ status: 'sending', nextAttemptAt: leaseUntil, attempts: sql`attempts + 1`, updatedAt: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sending'])
    .where('nextAttemptAt', '<=', now)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return undefined;
  return db
    .selectFrom('webhookDeliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhookDeliveries.webhookId')
    .select([
      'webhookDeliveries.id',
      'webhookDeliveries.webhookId',
      'webhookDeliveries.uuid',
      'webhookDeliveries.eventName',
      'webhookDeliveries.payload',
      'webhookDeliveries.attempts',
      'webhooks.url',
      'webhooks.secret',
      'webhooks.enabled',
    ])
    .where('webhookDeliveries.id', '=', id)
    .executeTakeFirst();
}

/** Writes an attempt's outcome, unless the claim was lost meanwhile (another process claimed the row again). */
export async function finishAttempt(
  db: Kysely<DB>,
  id: number,
  attempts: number,
  changes: Updateable<WebhookDeliveriesTable>,
): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('attempts', '=', attempts)
    .execute();
}
