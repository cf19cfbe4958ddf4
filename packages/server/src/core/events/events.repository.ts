import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** All the SQL of the event outbox (core/events/event-bus.ts). */

export interface ReadyDelivery {
  eventId: number;
  subscriber: string;
  attempts: number;
  nextAttemptAt: string;
  name: string;
  payload: string;
  dueAt: string;
}

export async function insertEvent(
  trx: Kysely<DB>,
  row: { name: string; payload: string; createdAt: string; dueAt: string },
): Promise<number> {
  const { id } = await trx.insertInto('domainEvents').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertDeliveries(
  trx: Kysely<DB>,
  eventId: number,
  subscribers: readonly string[],
  dueAt: string,
): Promise<void> {
  if (subscribers.length === 0) return;
  await trx
    .insertInto('eventDeliveries')
    .values(subscribers.map((subscriber) => ({ eventId, subscriber, nextAttemptAt: dueAt })))
    .execute();
}

/** Open deliveries of these subscribers whose time has come (due, a retry's wait over, or a lapsed claim). */
export async function readyDeliveries(
  db: Kysely<DB>,
  now: string,
  subscribers: readonly string[],
  limit: number,
): Promise<ReadyDelivery[]> {
  if (subscribers.length === 0) return [];
  return db
    .selectFrom('eventDeliveries as d')
    .innerJoin('domainEvents as e', 'e.id', 'd.eventId')
    .select(['d.eventId', 'd.subscriber', 'd.attempts', 'd.nextAttemptAt', 'e.name', 'e.payload', 'e.dueAt'])
    .where('d.doneAt', 'is', null)
    .where('d.nextAttemptAt', '<=', now)
    .where('d.subscriber', 'in', subscribers)
    .orderBy('d.nextAttemptAt')
    .orderBy('d.eventId')
    .limit(limit)
    .execute();
}

/**
 * Takes a delivery until `until`: only if it is still as it was read (open, with the same next attempt), so of the
 * processes that read it one wins.
 */
export async function claimDelivery(
  db: Kysely<DB>,
  row: Pick<ReadyDelivery, 'eventId' | 'subscriber' | 'nextAttemptAt'>,
  now: string,
  until: string,
  origin: string,
): Promise<boolean> {
  const result = await db
    .updateTable('eventDeliveries')
    .set((eb) => ({ nextAttemptAt: until, claimedBy: origin, attempts: eb('attempts', '+', 1) }))
    .where('eventId', '=', row.eventId)
    .where('subscriber', '=', row.subscriber)
    .where('doneAt', 'is', null)
    .where('nextAttemptAt', '=', row.nextAttemptAt)
    .where('nextAttemptAt', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Delivered (lastError null), or given up (with the last error). */
export async function finishDelivery(
  db: Kysely<DB>,
  row: Pick<ReadyDelivery, 'eventId' | 'subscriber'>,
  at: string,
  lastError: string | null,
): Promise<void> {
  await db
    .updateTable('eventDeliveries')
    .set({ doneAt: at, lastError })
    .where('eventId', '=', row.eventId)
    .where('subscriber', '=', row.subscriber)
    .execute();
}

export async function postponeDelivery(
  db: Kysely<DB>,
  row: Pick<ReadyDelivery, 'eventId' | 'subscriber'>,
  next: string,
  lastError: string,
): Promise<void> {
  await db
    .updateTable('eventDeliveries')
    .set({ nextAttemptAt: next, lastError: lastError.slice(0, 2000) })
    .where('eventId', '=', row.eventId)
    .where('subscriber', '=', row.subscriber)
    .execute();
}

/** Deletes events older than `before` that have no open delivery (their delivery rows go with them). */
export async function pruneDelivered(db: Kysely<DB>, before: string): Promise<void> {
  await db
    .deleteFrom('domainEvents')
    .where('createdAt', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('eventDeliveries')
            .select('eventId')
            .whereRef('eventDeliveries.eventId', '=', 'domainEvents.id')
            .where('doneAt', 'is', null),
        ),
      ),
    )
    .execute();
}
