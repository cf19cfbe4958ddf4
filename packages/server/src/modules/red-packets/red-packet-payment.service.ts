import {
  OrderStatus,
  OrderType,
  RED_PACKET_TTL_MS,
  RedPacketCondition,
  RedPacketStatus,
  WalletChangeType,
  type RedPacketPartBody,
} from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { msg } from '../../i18n/index.js';
import type { ViewerContext } from '../../access/viewer.js';
import { cancelOrder, orderInfoById, placeOrder, returnPaidOrder } from '../orders/index.js';
import { offeredTypes } from '../payments/index.js';
import type { PartThread, PartWrite } from '../thread-parts/index.js';
import { changeThreadState, findThread, lockThread } from '../threads/index.js';
import { applyChange } from '../wallet/index.js';
import {
  activateRedPacket,
  deletePendingRedPacket,
  findRedPacketOfThread,
  type RedPacketRow,
} from './red-packets.repository.js';
import {
  assertMayAddRedPacket,
  createRedPacket,
  ledgerText,
  storeRedPacket,
  totalOf,
  type RedPacketValue,
} from './red-packets.service.js';

/*
 * A red packet paid through one of the site's providers (`payment: 'provider'`), in the family's shape: the thread is
 * kept a draft (its author's alone), the red packet is stored waiting (status 2) with an order of type 9 for its total,
 * and when that order is paid (order.paid) the money is credited to the author's frozen money (ledger type 155), the
 * red packet starts to be handed out with its 24 hours from then, and the thread is published. An order nobody pays
 * expires and leaves the draft as it is (docs/thread-parts.md, docs/money.md).
 */

/** An unpaid order is sent again (not replaced) while at least this long is left to pay it, as order.create does. */
const REUSE_MIN_LEFT_MS = 2 * 60 * 1000;

const part = 'content.indexes.106';

/** Whether the body pays from the wallet (the default) rather than through a provider. */
export const paysFromWallet = (body: Pick<RedPacketPartBody, 'payment'>): boolean =>
  (body.payment ?? 'wallet') === 'wallet';

/** A provider payment needs one the site takes (on either layout). */
export async function assertProviderOffered(ctx: AppContext): Promise<void> {
  const types = [...(await offeredTypes(ctx, 'pc')), ...(await offeredTypes(ctx, 'h5'))];
  if (types.length === 0) throw invalidField(`${part}.body.payment`, msg('threadParts.redPacketNoProvider'));
}

/**
 * Whether the thread must stay a draft: it holds a red packet waiting for its order (unless the request removes it
 * or pays it from the wallet now), or the request adds one to be paid through a provider.
 */
export async function holdsDraft(
  db: Kysely<DB>,
  threadId: number | null,
  body: RedPacketPartBody | null | undefined,
): Promise<boolean> {
  const row = threadId === null ? undefined : await findRedPacketOfThread(db, threadId);
  if (body === null) return false;
  if (row && row.status !== RedPacketStatus.PENDING) return false;
  // Waiting (or new): held unless this request pays it from the wallet; a pending one left alone stays held.
  return body === undefined ? row !== undefined : !paysFromWallet(body);
}

/**
 * A new red packet to be paid through a provider, in the thread's transaction: only on a draft (a published thread
 * cannot go back to being one), stored waiting with its packets split, and its order of type 9 for the total.
 */
export async function createPendingRedPacket(
  ctx: AppContext,
  trx: Kysely<DB>,
  thread: PartThread,
  viewer: ViewerContext,
  body: RedPacketPartBody,
  at: string,
): Promise<RedPacketValue> {
  const user = await assertMayAddRedPacket(trx, thread, viewer);
  if (!thread.isDraft) throw invalidField(`${part}.body.payment`, msg('threadParts.redPacketProviderPublished'));
  const order = await placeOrder(ctx.events, trx as Transaction<DB>, {
    userId: user.id,
    type: OrderType.RED_PACKET,
    amountCents: totalOf(body),
    threadId: thread.id,
    at,
  });
  // Its 24 hours start when it is paid; until then the time kept is only a placeholder.
  const expiresAt = new Date(Date.parse(at) + RED_PACKET_TTL_MS).toISOString();
  const redPacketId = await storeRedPacket(
    trx,
    thread,
    body,
    { status: RedPacketStatus.PENDING, expiresAt, orderId: order.id },
    at,
  );
  return { redPacketId };
}

const sameBody = (row: RedPacketRow, body: RedPacketPartBody): boolean =>
  row.rule === body.rule &&
  row.condition === body.condition &&
  Number(row.priceCents) === body.price &&
  row.number === body.number &&
  (row.condition !== RedPacketCondition.LIKES || row.likenum === body.likenum) &&
  row.content === (body.content ?? '');

/**
 * The author sends a red packet that waits for its order again: the same body through a provider keeps it while its
 * order can still be paid; otherwise (changed, its order expired or failed, or paid from the wallet now) it is made
 * anew and its old order cancelled (money a provider still sends for that one goes back to the wallet).
 */
export async function changePendingRedPacket(
  ctx: AppContext,
  trx: Kysely<DB>,
  write: PartWrite,
  body: RedPacketPartBody,
  row: RedPacketRow,
): Promise<RedPacketValue> {
  if (!paysFromWallet(body) && sameBody(row, body) && row.orderId !== null) {
    const order = await orderInfoById(trx, row.orderId);
    const left = order ? Date.parse(order.expiresAt) - Date.parse(write.at) : 0;
    if (order?.status === OrderStatus.PENDING && left >= REUSE_MIN_LEFT_MS) return { redPacketId: row.id };
  }
  await removePendingRedPacket(trx, row, write.at);
  return paysFromWallet(body)
    ? createRedPacket(ctx, trx, write.thread, write.viewer, body, write.at)
    : createPendingRedPacket(ctx, trx, write.thread, write.viewer, body, write.at);
}

/** A red packet nobody paid is taken away, and its order cancelled. */
export async function removePendingRedPacket(trx: Kysely<DB>, row: RedPacketRow, at: string): Promise<void> {
  if (!(await deletePendingRedPacket(trx, row.id))) {
    throw invalidField(part, msg('threadParts.redPacketCannotChange'));
  }
  if (row.orderId !== null) await cancelOrder(trx, row.orderId, at);
}

/** What order.paid says of an order. */
export interface PaidOrder {
  orderId: number;
  userId: number;
  threadId: number;
  amountCents: number;
}

/**
 * A red packet's order was paid (order.paid of type 9), in one transaction, once: the money is credited to the
 * author's frozen money (155), the red packet is handed out from now on (its timer set for 24 hours), and the thread,
 * a draft until now, is published (thread.updated tells search, topics and notifications, as publishing a draft
 * does; a draft without a title stays a draft). Money for an order that no longer pays a red packet (changed,
 * removed, paid otherwise, its thread deleted) goes back to the author's available money (34). Heard again, nothing
 * moves. Answers what happened.
 */
export async function fundRedPacket(ctx: AppContext, paid: PaidOrder): Promise<'funded' | 'returned' | 'seen'> {
  const fundedText = await ledgerText(ctx.db, 'paid', paid.threadId);
  const returnedText = await ledgerText(ctx.db, 'returned', paid.threadId);
  return ctx.db.transaction().execute(async (trx) => {
    await lockThread(trx, ctx.dialect, paid.threadId);
    const at = now();
    const thread = await findThread(trx, paid.threadId);
    const row = await findRedPacketOfThread(trx, paid.threadId);
    if (row && row.orderId === paid.orderId && row.status !== RedPacketStatus.PENDING) return 'seen';
    const fundable =
      thread !== undefined &&
      thread.deletedAt === null &&
      row !== undefined &&
      row.status === RedPacketStatus.PENDING &&
      row.orderId === paid.orderId &&
      row.userId === paid.userId &&
      Number(row.moneyCents) === paid.amountCents;
    if (!fundable) return (await returnPaidOrder(trx, paid.orderId, returnedText, at)) ? 'returned' : 'seen';

    const expiresAt = new Date(Date.parse(at) + RED_PACKET_TTL_MS).toISOString();
    if (!(await activateRedPacket(trx, row.id, paid.orderId, expiresAt, at))) return 'seen';
    await applyChange(trx, {
      userId: row.userId,
      available: 0,
      frozen: paid.amountCents,
      type: WalletChangeType.RED_PACKET_PAID,
      desc: fundedText,
      orderId: paid.orderId,
    });
    await ctx.events.emit(
      trx,
      'red_packet.expiry_due',
      { redPacketId: row.id, threadId: row.threadId, userId: row.userId },
      { dueAt: expiresAt },
    );
    if (thread.isDraft === 1 && thread.title !== '') {
      await changeThreadState(trx, thread, { isDraft: 0, createdAt: at, lastPostedAt: at, updatedAt: at });
      await ctx.events.emit(trx, 'thread.updated', { threadId: thread.id, userId: thread.userId });
    }
    return 'funded';
  });
}
