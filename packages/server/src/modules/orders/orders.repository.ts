import { OrderStatus } from '@luntan/shared';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { inMs, now } from '../../core/time.js';
import type { DialectName } from '../../db/database.js';
import type { DB, Order } from '../../db/schema.js';

/*
 * All the SQL of orders: the orders themselves, purchases (one per member and thing: a unique key) and payment
 * receipts (one per provider and transaction number: a unique key). Every change of an order's status is a
 * conditional UPDATE on the status it expects; the services decide and run the transactions (docs/money.md).
 */

type Db = Kysely<DB> | Transaction<DB>;

/** What a payment receipt became: it paid the order, or it went back to the payer's wallet. */
export const ReceiptOutcome = { SETTLED: 1, RETURNED: 2 } as const;

/** The title an order shows: its thread's or its group's, else empty. */
export async function orderTitle(db: Db, o: Order): Promise<string> {
  return (await orderSubject(db, o)).title;
}

/** An order's title, and whether it is about an anonymous thread (whose author, the payee, is named to nobody). */
export async function orderSubject(db: Db, o: Order): Promise<{ title: string; anonymous: boolean }> {
  if (o.threadId !== null) {
    const t = await db
      .selectFrom('threads')
      .select(['title', 'isAnonymous'])
      .where('id', '=', o.threadId)
      .executeTakeFirst();
    return { title: t?.title ?? '', anonymous: t?.isAnonymous === 1 };
  }
  return { title: await otherTitle(db, o), anonymous: false };
}

async function otherTitle(db: Db, o: Order): Promise<string> {
  if (o.groupId !== null) {
    const g = await db.selectFrom('groups').select('name').where('id', '=', o.groupId).executeTakeFirst();
    return g?.name ?? '';
  }
  return '';
}

/** The thread an order would buy or reward, with what deciding whether it may be read needs. */
export async function findThreadToBuy(db: Db, threadId: number) {
  return db
    .selectFrom('threads')
    .select(['id', 'categoryId', 'userId', 'isDraft', 'isApproved', 'deletedAt', 'priceCents', 'title', 'isAnonymous'])
    .where('id', '=', threadId)
    .executeTakeFirst();
}

export async function findGroup(db: Db, groupId: number) {
  return db.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirst();
}

/** The paid order by which the member bought a thing (a paid thread), if they did. */
export async function findPurchaseOrder(
  db: Db,
  userId: number,
  type: number,
  thingId: number,
): Promise<Order | undefined> {
  return db
    .selectFrom('purchases as p')
    .innerJoin('orders as o', 'o.id', 'p.orderId')
    .selectAll('o')
    .where('p.userId', '=', userId)
    .where('p.type', '=', type)
    .where('p.thingId', '=', thingId)
    .executeTakeFirst();
}

/** The member's unpaid order for the same thing and amount, with at least `minLeftMs` left to pay it. */
export async function findUnpaidOrder(
  db: Db,
  o: {
    userId: number;
    type: number;
    amountCents: number;
    threadId: number | null;
    groupId: number | null;
    isAnonymous: number;
  },
  minLeftMs: number,
): Promise<Order | undefined> {
  let q = db
    .selectFrom('orders')
    .selectAll()
    .where('userId', '=', o.userId)
    .where('type', '=', o.type)
    .where('status', '=', OrderStatus.PENDING)
    .where('amountCents', '=', o.amountCents)
    .where('isAnonymous', '=', o.isAnonymous)
    .where('expiresAt', '>', inMs(minLeftMs));
  q = o.threadId === null ? q.where('threadId', 'is', null) : q.where('threadId', '=', o.threadId);
  q = o.groupId === null ? q.where('groupId', 'is', null) : q.where('groupId', '=', o.groupId);
  return q.orderBy('id', 'desc').executeTakeFirst();
}

export async function insertOrder(trx: Db, values: Insertable<DB['orders']>): Promise<Order> {
  return trx.insertInto('orders').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findOrderBySn(db: Db, orderSn: string): Promise<Order | undefined> {
  return db.selectFrom('orders').selectAll().where('orderSn', '=', orderSn).executeTakeFirst();
}

export async function findOrderById(db: Db, id: number): Promise<Order | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One page of a member's orders, newest first; an unpaid order past its time counts as expired. */
export async function listOrderRows(
  db: Db,
  userId: number,
  query: { page: number; perPage: number; filter: { type?: number | undefined; status?: number | undefined } },
): Promise<{ count: number; rows: Order[] }> {
  const { page, perPage, filter } = query;
  const at = now();
  let base = db.selectFrom('orders').where('userId', '=', userId);
  if (filter.type !== undefined) base = base.where('type', '=', filter.type);
  if (filter.status === OrderStatus.EXPIRED) {
    base = base.where((eb) =>
      eb.or([
        eb('status', '=', OrderStatus.EXPIRED),
        eb.and([eb('status', '=', OrderStatus.PENDING), eb('expiresAt', '<=', at)]),
      ]),
    );
  } else if (filter.status === OrderStatus.PENDING) {
    base = base.where('status', '=', OrderStatus.PENDING).where('expiresAt', '>', at);
  } else if (filter.status !== undefined) {
    base = base.where('status', '=', filter.status);
  }
  const [{ count }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
  ]);
  return { count: Number(count), rows };
}

/** Marks a pending order past its time as expired (a conditional update); answers it when this call did. */
export async function expirePendingOrder(trx: Db, orderId: number, at: string) {
  return trx
    .updateTable('orders')
    .set({ status: OrderStatus.EXPIRED, updatedAt: at })
    .where('id', '=', orderId)
    .where('status', '=', OrderStatus.PENDING)
    .where('expiresAt', '<=', at)
    .returning(['id', 'userId'])
    .executeTakeFirst();
}

/** Records a provider's payment once (unique provider and transaction number); false when it was recorded already. */
export async function insertReceipt(
  trx: Db,
  r: { provider: string; tradeNo: string; orderId: number; amountCents: number; at: string },
): Promise<boolean> {
  const recorded = await trx
    .insertInto('paymentReceipts')
    .values({
      provider: r.provider,
      tradeNo: r.tradeNo,
      orderId: r.orderId,
      amountCents: r.amountCents,
      outcome: ReceiptOutcome.SETTLED,
      createdAt: r.at,
    })
    .onConflict((oc) => oc.columns(['provider', 'tradeNo']).doNothing())
    .executeTakeFirst();
  return Number(recorded.numInsertedOrUpdatedRows ?? 0) !== 0;
}

export async function markReceiptReturned(trx: Db, provider: string, tradeNo: string): Promise<void> {
  await trx
    .updateTable('paymentReceipts')
    .set({ outcome: ReceiptOutcome.RETURNED })
    .where('provider', '=', provider)
    .where('tradeNo', '=', tradeNo)
    .execute();
}

/**
 * Marks the order paid, once: a conditional update on the statuses that may be paid. From the wallet only a pending
 * order still in its time; money that came in through a provider pays one that expired, failed or was closed too.
 * Answers whether this call claimed it.
 */
export async function claimOrderPaid(
  trx: Db,
  orderId: number,
  p: { paymentType: number; tradeNo: string | null; fromProvider: boolean; at: string },
): Promise<boolean> {
  let claim = trx
    .updateTable('orders')
    .set({ status: OrderStatus.PAID, paymentType: p.paymentType, tradeNo: p.tradeNo, paidAt: p.at, updatedAt: p.at })
    .where('id', '=', orderId);
  claim = p.fromProvider
    ? claim.where('status', 'in', [OrderStatus.PENDING, OrderStatus.EXPIRED, OrderStatus.FAILED, OrderStatus.CANCELLED])
    : claim.where('status', '=', OrderStatus.PENDING).where('expiresAt', '>', p.at);
  const claimed = await claim.executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** The purchase row (one per member and thing: the database refuses a second); false when there is one already. */
export async function insertPurchase(
  trx: Db,
  p: { userId: number; type: number; thingId: number; orderId: number; at: string },
): Promise<boolean> {
  const bought = await trx
    .insertInto('purchases')
    .values({ userId: p.userId, type: p.type, thingId: p.thingId, orderId: p.orderId, createdAt: p.at })
    .onConflict((oc) => oc.columns(['userId', 'type', 'thingId']).doNothing())
    .executeTakeFirst();
  return Number(bought.numInsertedOrUpdatedRows ?? 0) !== 0;
}

/** Cancels a pending order (a conditional update); answers whether this call did. */
export async function cancelPendingOrder(trx: Db, orderId: number, at: string): Promise<boolean> {
  const res = await trx
    .updateTable('orders')
    .set({ status: OrderStatus.CANCELLED, updatedAt: at })
    .where('id', '=', orderId)
    .where('status', '=', OrderStatus.PENDING)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Marks a paid order refunded, once (a conditional update); answers it when this call did. */
export async function refundPaidOrder(trx: Db, orderId: number, at: string): Promise<Order | undefined> {
  return trx
    .updateTable('orders')
    .set({ status: OrderStatus.REFUNDED, updatedAt: at })
    .where('id', '=', orderId)
    .where('status', '=', OrderStatus.PAID)
    .returningAll()
    .executeTakeFirst();
}

export async function markOrderRefunded(trx: Db, orderId: number, at: string): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ status: OrderStatus.REFUNDED, updatedAt: at })
    .where('id', '=', orderId)
    .execute();
}

/** Notes the payment method chosen for a pending order. */
export async function setPendingPaymentType(db: Db, orderId: number, paymentType: number): Promise<void> {
  await db
    .updateTable('orders')
    .set({ paymentType, updatedAt: now() })
    .where('id', '=', orderId)
    .where('status', '=', OrderStatus.PENDING)
    .execute();
}

/** A provider reported a failure: a pending order is marked failed (nothing else changes). */
export async function markPendingFailed(db: Db, orderId: number): Promise<void> {
  await db
    .updateTable('orders')
    .set({ status: OrderStatus.FAILED, updatedAt: now() })
    .where('id', '=', orderId)
    .where('status', '=', OrderStatus.PENDING)
    .execute();
}

/**
 * The days a paid group lasts (0: for ever); undefined when the group is gone (orders.group_id has no key, and an
 * administrator may delete a group with unpaid orders for it). On PostgreSQL the group's row is held (key share) to
 * the end of the caller's transaction, so a deletion waits for the membership written under it, or was first and the
 * group reads as gone (groups.repository deletes the group's row before its memberships).
 */
export async function readGroupDays(trx: Db, dialect: DialectName, groupId: number): Promise<number | undefined> {
  let read = trx.selectFrom('groups').select('days').where('id', '=', groupId);
  if (dialect === 'postgres') read = read.forKeyShare();
  return (await read.executeTakeFirst())?.days;
}

/** When the member's membership of the group ends (null: for ever or not a member: see `held`). */
export async function readMembership(trx: Db, userId: number, groupId: number) {
  return trx
    .selectFrom('groupUser')
    .select('expiresAt')
    .where('userId', '=', userId)
    .where('groupId', '=', groupId)
    .executeTakeFirst();
}

/** The paid group replaces the member's groups. */
export async function replaceMemberships(
  trx: Db,
  userId: number,
  groupId: number,
  expiresAt: string | null,
): Promise<void> {
  await trx.deleteFrom('groupUser').where('userId', '=', userId).execute();
  await trx.insertInto('groupUser').values({ userId, groupId, expiresAt }).execute();
}

export async function readPaidUntil(trx: Db, userId: number): Promise<string | null> {
  const user = await trx.selectFrom('users').select('paidUntil').where('id', '=', userId).executeTakeFirstOrThrow();
  return user.paidUntil;
}

export async function setJoining(trx: Db, userId: number, at: string, paidUntil: string): Promise<void> {
  await trx.updateTable('users').set({ paidAt: at, paidUntil, updatedAt: at }).where('id', '=', userId).execute();
}
