import { OrderStatus, OrderType } from '@luntan/shared';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/*
 * The reading side of paid threads and rewards: the paid orders of a thread (type 3 purchases, type 2 rewards).
 * Orders are written by the orders module; nothing here writes.
 */

/** Of `threadIds`, those the user bought (a paid order of type 3). */
export async function boughtThreadIds(db: Kysely<DB>, userId: number, threadIds: number[]): Promise<Set<number>> {
  if (threadIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('orders')
    .select('threadId')
    .distinct()
    .where('userId', '=', userId)
    .where('type', '=', OrderType.THREAD)
    .where('status', '=', OrderStatus.PAID)
    .where('threadId', 'in', threadIds)
    .execute();
  return new Set(rows.flatMap((r) => (r.threadId === null ? [] : [r.threadId])));
}

/**
 * How many bought the thread, and how many rewards it received and their total in cents: one read of the thread's
 * paid orders of both types (a thread page asks for it on every first visit). Written as SQL: built with the query
 * builder, its conditional aggregates cost more to build than to run.
 */
export async function paymentTotals(
  db: Kysely<DB>,
  threadId: number,
): Promise<{ paidCount: number; rewardedCount: number; rewardedCents: number }> {
  const { rows } = await sql<{
    buyers: number | string;
    rewards: number | string | null;
    cents: number | string | null;
  }>`
    select count(distinct case when type = ${OrderType.THREAD} then user_id end) as buyers,
      sum(case when type = ${OrderType.REWARD} then 1 else 0 end) as rewards,
      sum(case when type = ${OrderType.REWARD} then amount_cents else 0 end) as cents
    from orders
    where thread_id = ${threadId} and type in (${OrderType.THREAD}, ${OrderType.REWARD}) and status = ${OrderStatus.PAID}
  `.execute(db);
  const totals = rows[0];
  return {
    paidCount: Number(totals?.buyers ?? 0),
    rewardedCount: Number(totals?.rewards ?? 0),
    rewardedCents: Number(totals?.cents ?? 0),
  };
}

export async function countThreadPayments(db: Kysely<DB>, threadId: number, type: number): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('threadId', '=', threadId)
    .where('type', '=', type)
    .where('status', '=', OrderStatus.PAID)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface ThreadPaymentRow {
  userId: number;
  nickname: string;
  avatar: string;
  isAnonymous: number;
  amountCents: number;
  paidAt: string | null;
  createdAt: string;
}

/** A page of the thread's paid orders of one type with their payers, newest first. */
export function listThreadPayments(
  db: Kysely<DB>,
  threadId: number,
  type: number,
  offset: number,
  limit: number,
): Promise<ThreadPaymentRow[]> {
  return db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.userId')
    .select([
      'orders.userId',
      'users.nickname',
      'users.avatar',
      'orders.isAnonymous',
      'orders.amountCents',
      'orders.paidAt',
      'orders.createdAt',
    ])
    .where('orders.threadId', '=', threadId)
    .where('orders.type', '=', type)
    .where('orders.status', '=', OrderStatus.PAID)
    .orderBy('orders.paidAt', 'desc')
    .orderBy('orders.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}
