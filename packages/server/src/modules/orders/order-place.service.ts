import { ORDER_EXPIRY_MS, WalletChangeType, type OrderInfo } from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { inMs } from '../../core/time.js';
import type { DB, Order } from '../../db/schema.js';
import { applyChange, newSerial } from '../wallet/index.js';
import { cancelPendingOrder, findOrderById, insertOrder, orderSubject, refundPaidOrder } from './orders.repository.js';
import { presentOrder } from './orders.service.js';

/*
 * Placing an order, for order.create and for the modules that sell something with a write of their own (a red
 * packet's money, order type 9, made with its thread): in the caller's transaction, with its expiry timer. And what
 * those modules do with their orders afterwards: read one, cancel one nobody paid, return a paid one's money to the
 * payer's wallet when what it paid for is gone (docs/money.md).
 */

type Db = Kysely<DB> | Transaction<DB>;

export interface NewOrder {
  userId: number;
  type: number;
  amountCents: number;
  payeeId?: number | null;
  /** The payee's and the site's shares (default: none, as a recharge). */
  shares?: { author: number; master: number };
  threadId?: number | null;
  groupId?: number | null;
  isAnonymous?: number;
  at: string;
}

/** Writes a pending order (ten minutes to pay it) and its timer: at its expiry it is marked expired if unpaid. */
export async function placeOrder(events: AppContext['events'], trx: Transaction<DB>, o: NewOrder): Promise<Order> {
  const created = await insertOrder(trx, {
    orderSn: newSerial(),
    userId: o.userId,
    payeeId: o.payeeId ?? null,
    type: o.type,
    amountCents: o.amountCents,
    authorAmountCents: o.shares?.author ?? 0,
    masterAmountCents: o.shares?.master ?? 0,
    threadId: o.threadId ?? null,
    groupId: o.groupId ?? null,
    isAnonymous: o.isAnonymous ?? 0,
    paymentType: null,
    createdAt: o.at,
    updatedAt: o.at,
    expiresAt: inMs(ORDER_EXPIRY_MS),
  });
  await events.emit(
    trx,
    'order.expiry_due',
    { orderId: created.id, userId: created.userId },
    { dueAt: created.expiresAt },
  );
  return created;
}

/** An order as its payer reads it (order.detail's shape), by id. */
export async function orderInfoById(db: Db, orderId: number): Promise<OrderInfo | undefined> {
  const order = await findOrderById(db, orderId);
  return order ? presentOrder(order, await orderSubject(db, order)) : undefined;
}

/** Cancels an order nobody paid (what it was for changed); money a provider still sends for it goes back (below). */
export async function cancelOrder(trx: Db, orderId: number, at: string): Promise<boolean> {
  return cancelPendingOrder(trx, orderId, at);
}

/**
 * A paid order whose thing is gone (a red packet changed, removed or paid otherwise meanwhile): marked refunded and
 * its amount returned to the payer's available money (ledger type 34), once. Answers whether this call did.
 */
export async function returnPaidOrder(
  trx: Transaction<DB>,
  orderId: number,
  desc: string,
  at: string,
): Promise<boolean> {
  const order = await refundPaidOrder(trx, orderId, at);
  if (!order) return false;
  await applyChange(trx, {
    userId: order.userId,
    available: Number(order.amountCents),
    type: WalletChangeType.PAYMENT_RETURNED,
    desc,
    orderId: order.id,
  });
  return true;
}
