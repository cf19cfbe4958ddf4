import { OrderStatus, OrderType } from '@luntan/shared';
import type { Kysely } from 'kysely';
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
