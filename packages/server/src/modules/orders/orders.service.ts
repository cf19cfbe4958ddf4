import { Code, formatMoney, OrderStatus, type OrderInfo, type Page } from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import { AppError, notFound } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, Order } from '../../db/schema.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { findOrderBySn, listOrderRows, orderSubject } from './orders.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * Orders: what a member buys (a thread, a reward, a group, the site's joining, a recharge), paid from the wallet or
 * through a provider. An order is paid exactly once: every change of its status is a conditional UPDATE on the
 * status it expects, and what the payment buys happens in the same transaction (docs/money.md).
 * Creating: order-create.service.ts; paying: order-pay.service.ts; settling a payment: order-settle.service.ts;
 * providers' notices: payment-notices.service.ts. This file: reading orders and what they all share.
 */

type Db = Kysely<DB> | Transaction<DB>;

export const alreadyPaid = () =>
  new AppError(Code.PAYMENT_FAILED, msg('orders.orderAlreadyBeenPaid'), { data: { reason: 'paid' } });
export const orderExpired = () => new AppError(Code.RESOURCE_EXPIRED, msg('orders.orderExpiredPlaceNew'));
export const orderClosed = () =>
  new AppError(Code.PAYMENT_FAILED, msg('orders.orderClosed'), { data: { reason: 'closed' } });
export const orderNotFound = () => notFound(msg('orders.orderNotFound'));
/** A paid group's order whose group was deleted since it was placed. */
export const groupGone = () => notFound(msg('orders.thereNoSuchGroup'));
/** A paid group the member holds without an end (given by an administrator, or bought when it had 0 days). */
export const heldForEver = () => new AppError(Code.RESOURCE_EXIST, msg('orders.youAlreadyHoldGroupForEver'));

/** The status as of now: a pending order past its time reads as expired (and is marked so when next touched). */
const effectiveStatus = (o: Pick<Order, 'status' | 'expiresAt'>, at = now()) =>
  o.status === OrderStatus.PENDING && o.expiresAt <= at ? OrderStatus.EXPIRED : o.status;

/** An order as its member reads it; of an anonymous thread, without the payee (its author: threads/anonymous.ts). */
export function presentOrder(o: Order, subject: { title: string; anonymous: boolean }): OrderInfo {
  const { title } = subject;
  return {
    id: o.id,
    orderSn: o.orderSn,
    type: o.type,
    status: effectiveStatus(o),
    amount: formatMoney(Number(o.amountCents)),
    authorAmount: formatMoney(Number(o.authorAmountCents)),
    masterAmount: formatMoney(Number(o.masterAmountCents)),
    userId: o.userId,
    payeeId: subject.anonymous ? null : o.payeeId,
    threadId: o.threadId,
    groupId: o.groupId,
    title,
    paymentType: o.paymentType,
    isAnonymous: o.isAnonymous === 1,
    createdAt: o.createdAt,
    paidAt: o.paidAt,
    expiresAt: o.expiresAt,
  };
}

export async function findOrder(db: Db, orderSn: string): Promise<Order | undefined> {
  return findOrderBySn(db, orderSn);
}

/** GET /api/v3/order.detail: my order (administrators: any). */
export async function readOrder(db: Kysely<DB>, viewer: ViewerContext, orderSn: string): Promise<OrderInfo> {
  const user = requireUser(viewer);
  const order = await findOrder(db, orderSn);
  if (!order || (order.userId !== user.id && !viewer.isAdmin)) throw orderNotFound();
  return presentOrder(order, await orderSubject(db, order));
}

export async function listOrders(
  db: Kysely<DB>,
  userId: number,
  query: { page: number; perPage: number; filter: { type?: number | undefined; status?: number | undefined } },
): Promise<Page<OrderInfo>> {
  const { page, perPage } = query;
  const { count: totalCount, rows } = await listOrderRows(db, userId, query);
  const pageData = await Promise.all(rows.map(async (o) => presentOrder(o, await orderSubject(db, o))));
  return { pageData, currentPage: page, perPage, totalCount, totalPage: Math.ceil(totalCount / perPage) };
}
