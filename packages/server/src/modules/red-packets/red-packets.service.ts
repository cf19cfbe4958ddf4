import {
  Code,
  formatMoney,
  RED_PACKET_TTL_MS,
  RedPacketCondition,
  RedPacketRule,
  RedPacketStatus,
  WalletChangeType,
  type CheckRedPacketResult,
  type RedPacketPart,
  type RedPacketPartBody,
} from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError, invalidField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { msg } from '../../i18n/index.js';
import { readSiteSettings } from '../settings/index.js';
import { assertCanReadThread, findPost, findThread } from '../threads/index.js';
import { orderInfoById } from '../orders/index.js';
import type { PartThread } from '../thread-parts/index.js';
import { applyChange } from '../wallet/index.js';
import type { ViewerContext } from '../../access/viewer.js';
import { requireUser } from '../../access/viewer.js';
import {
  claimFirstShare,
  findRedPacket,
  findRedPacketOfThread,
  findShareOf,
  insertRedPacket,
  insertShares,
  markShareSeen,
  receivers,
  recordReturned,
  stopRedPacket,
  subtractRemain,
  takeOnePacket,
} from './red-packets.repository.js';

/** What the part keeps in thread_parts.value: its row. */
export interface RedPacketValue {
  redPacketId: number;
}

const randomInt = (below: number): number => {
  // Unbiased enough for amounts: 32 random bits, below is at most 20,000.
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return n! % below;
};

/**
 * The packets' amounts in cents, split when the red packet is made: `number` equal ones of `price` each, or a random
 * split of `price` in which every packet holds at least one cent and all sum to it exactly.
 */
export function splitAmounts(rule: number, priceCents: number, number: number): number[] {
  if (rule === RedPacketRule.EQUAL) return Array.from({ length: number }, () => priceCents);
  if (priceCents < number) throw new Error('fewer cents than packets');
  // number - 1 cuts among the cents left after one for each packet; the gaps are the extras.
  const rest = priceCents - number;
  const cuts = Array.from({ length: number - 1 }, () => randomInt(rest + 1)).sort((a, b) => a - b);
  const bounds = [0, ...cuts, rest];
  return Array.from({ length: number }, (_, i) => bounds[i + 1]! - bounds[i]! + 1);
}

export const totalOf = (body: Pick<RedPacketPartBody, 'rule' | 'price' | 'number'>) =>
  body.rule === RedPacketRule.EQUAL ? body.price * body.number : body.price;

async function siteLocale(db: Kysely<DB>): Promise<'zh' | 'en'> {
  const site = await readSiteSettings(db);
  return String(site.siteLocale ?? 'zh') === 'en' ? 'en' : 'zh';
}

const LEDGER_TEXTS = {
  freeze: 'threadParts.redPacketLedgerFreeze',
  income: 'threadParts.redPacketLedgerIncome',
  refund: 'threadParts.redPacketLedgerRefund',
  expense: 'threadParts.redPacketLedgerExpense',
  paid: 'threadParts.redPacketLedgerPaid',
  returned: 'threadParts.redPacketLedgerReturned',
} as const;

/** A ledger row's words, in the site's language (a ledger row is written once). */
export const ledgerText = async (db: Kysely<DB>, key: keyof typeof LEDGER_TEXTS, threadId: number) =>
  msg(LEDGER_TEXTS[key], { threadId })[await siteLocale(db)];

/** The part's author and that the thread holds no red packet yet: what every new red packet needs. */
export async function assertMayAddRedPacket(trx: Kysely<DB>, thread: PartThread, viewer: ViewerContext) {
  const user = requireUser(viewer);
  if (user.id !== thread.userId) throw invalidField('content.indexes.106', msg('threadParts.redPacketOnlyAuthor'));
  if (await findRedPacketOfThread(trx, thread.id)) {
    throw invalidField('content.indexes.106', msg('threadParts.redPacketCannotChange'));
  }
  return user;
}

/** Writes the red packet's row and its packets, split now (random: cut at random, each at least a cent). */
export async function storeRedPacket(
  trx: Kysely<DB>,
  thread: PartThread,
  body: RedPacketPartBody,
  state: { status: number; expiresAt: string; orderId: number | null },
  at: string,
): Promise<number> {
  const total = totalOf(body);
  const redPacketId = await insertRedPacket(trx, {
    threadId: thread.id,
    postId: thread.postId,
    userId: thread.userId,
    rule: body.rule,
    condition: body.condition,
    likenum: body.condition === RedPacketCondition.LIKES ? (body.likenum ?? 1) : 0,
    content: body.content ?? '',
    priceCents: body.price,
    moneyCents: total,
    number: body.number,
    remainCents: total,
    remainNumber: body.number,
    status: state.status,
    orderId: state.orderId,
    expiresAt: state.expiresAt,
    createdAt: at,
    updatedAt: at,
  });
  await insertShares(trx, redPacketId, thread.id, splitAmounts(body.rule, body.price, body.number));
  return redPacketId;
}

/**
 * Makes the red packet of a new part paid from the wallet, in the thread's transaction: the author's money moves from
 * available to frozen (refused, and nothing stored, when there is not enough), the packets are split, and its timer
 * is set.
 */
export async function createRedPacket(
  ctx: AppContext,
  trx: Kysely<DB>,
  thread: PartThread,
  viewer: ViewerContext,
  body: RedPacketPartBody,
  at: string,
): Promise<RedPacketValue> {
  const user = await assertMayAddRedPacket(trx, thread, viewer);
  const total = totalOf(body);
  await applyChange(trx as Transaction<DB>, {
    userId: user.id,
    available: -total,
    frozen: total,
    type: WalletChangeType.RED_PACKET_FREEZE,
    desc: await ledgerText(trx, 'freeze', thread.id),
    requireActive: true,
  });
  const expiresAt = new Date(Date.parse(at) + RED_PACKET_TTL_MS).toISOString();
  const redPacketId = await storeRedPacket(
    trx,
    thread,
    body,
    { status: RedPacketStatus.VALID, expiresAt, orderId: null },
    at,
  );
  await ctx.events.emit(
    trx,
    'red_packet.expiry_due',
    { redPacketId, threadId: thread.id, userId: user.id },
    { dueAt: expiresAt },
  );
  return { redPacketId };
}

/** A red packet cannot be changed once paid: the same body again is accepted (the editor sends it back). */
export async function keepRedPacket(
  trx: Kysely<DB>,
  threadId: number,
  body: RedPacketPartBody,
  previous: RedPacketValue,
): Promise<RedPacketValue> {
  const row = await findRedPacketOfThread(trx, threadId);
  const same =
    row !== undefined &&
    row.rule === body.rule &&
    row.condition === body.condition &&
    Number(row.priceCents) === body.price &&
    row.number === body.number &&
    (row.condition !== RedPacketCondition.LIKES || row.likenum === body.likenum) &&
    row.content === (body.content ?? '');
  if (!same) throw invalidField('content.indexes.106', msg('threadParts.redPacketCannotChange'));
  return previous;
}

/**
 * Gives the member one packet of the thread's red packet, once: the packet row is claimed with a conditional update
 * behind the red packet's row lock, the member's wallet gets its amount from the author's frozen money, and
 * red_packet.received is announced in the same transaction (the member's notice). Answers the amount in cents, or
 * null when nothing was given (none left, expired, the author, had one already).
 */
export async function claimPacket(
  ctx: AppContext,
  threadId: number,
  userId: number,
  postId: number,
): Promise<number | null> {
  const packet = await findRedPacketOfThread(ctx.db, threadId);
  if (!packet || packet.status !== RedPacketStatus.VALID || packet.userId === userId) return null;
  if (await findShareOf(ctx.db, threadId, userId)) return null;
  const income = await ledgerText(ctx.db, 'income', threadId);
  const expense = await ledgerText(ctx.db, 'expense', threadId);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const at = now();
      if (!(await takeOnePacket(trx, packet.id, at))) return null;
      if (await findShareOf(trx, threadId, userId)) throw new NoPacket();
      const share = await claimFirstShare(trx, packet.id, userId, postId, at);
      if (!share) throw new NoPacket();
      await subtractRemain(trx, packet.id, share.amountCents);
      await applyChange(trx, {
        userId: packet.userId,
        available: 0,
        frozen: -share.amountCents,
        type: WalletChangeType.RED_PACKET_EXPENSE,
        desc: expense,
      });
      await applyChange(trx, {
        userId,
        available: share.amountCents,
        type: WalletChangeType.RED_PACKET_INCOME,
        desc: income,
      });
      await ctx.events.emit(trx, 'red_packet.received', {
        redPacketId: packet.id,
        threadId,
        postId,
        userId,
        authorId: packet.userId,
        amountCents: share.amountCents,
      });
      return share.amountCents;
    });
  } catch (err) {
    if (err instanceof NoPacket) return null;
    // The same member claiming twice at once: the unique (thread, user) index refused the second.
    if (await findShareOf(ctx.db, threadId, userId)) return null;
    throw err;
  }
}

class NoPacket extends Error {}

/** Whether the post earns its author a packet under the red packet's condition, and gives it. */
export async function claimForPost(ctx: AppContext, threadId: number, postId: number): Promise<number | null> {
  // Most threads have no red packet: that is asked first.
  const packet = await findRedPacketOfThread(ctx.db, threadId);
  if (!packet || packet.status !== RedPacketStatus.VALID) return null;
  const post = await findPost(ctx.db, postId);
  if (!post || post.threadId !== threadId || post.isFirst === 1 || post.isComment === 1) return null;
  if (post.isApproved !== 1 || post.deletedAt !== null) return null;
  const thread = await findThread(ctx.db, post.threadId);
  if (!thread || thread.deletedAt !== null || thread.isDraft === 1 || thread.isApproved !== 1) return null;
  if (packet.condition === RedPacketCondition.LIKES && post.likeCount < packet.likenum) return null;
  if (packet.content !== '' && !post.content.includes(packet.content)) return null;
  return claimPacket(ctx, post.threadId, post.userId, post.id);
}

/**
 * The red packet's time is up: what nobody took goes back from the author's frozen money to the available, once
 * (the status flips in a conditional update that also holds the row, so no claim slips in between).
 */
export async function expireRedPacket(ctx: AppContext, redPacketId: number): Promise<number | null> {
  const packet = await findRedPacket(ctx.db, redPacketId);
  if (!packet) return null;
  const desc = await ledgerText(ctx.db, 'refund', packet.threadId);
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await stopRedPacket(trx, redPacketId, now()))) return null;
    const current = (await findRedPacket(trx, redPacketId))!;
    const rest = Number(current.remainCents);
    await recordReturned(trx, redPacketId, rest);
    if (rest > 0) {
      await applyChange(trx, {
        userId: current.userId,
        available: rest,
        frozen: -rest,
        type: WalletChangeType.RED_PACKET_REFUND,
        desc,
      });
    }
    return rest;
  });
}

/**
 * The part as a viewer sees it: what is left, who got what, the viewer's own packet; one waiting for its order shows
 * nothing handed out, and its author the order to pay.
 */
export async function presentRedPacket(
  db: Kysely<DB>,
  viewer: ViewerContext,
  threadId: number,
): Promise<RedPacketPart | null> {
  const row = await findRedPacketOfThread(db, threadId);
  if (!row) return null;
  const unpaid = row.status === RedPacketStatus.PENDING;
  const list = unpaid ? [] : await receivers(db, row.id);
  const mine = viewer.user ? list.find((r) => r.userId === viewer.user!.id) : undefined;
  const expired = !unpaid && row.expiresAt <= now();
  const own = viewer.user !== null && viewer.user.id === row.userId;
  const order = unpaid && own && row.orderId !== null ? await orderInfoById(db, row.orderId) : undefined;
  return {
    id: row.id,
    rule: row.rule,
    condition: row.condition,
    likenum: row.likenum,
    number: row.number,
    price: formatMoney(Number(row.priceCents)),
    money: formatMoney(Number(row.moneyCents)),
    remainMoney: formatMoney(Number(row.remainCents)),
    remainNumber: row.remainNumber,
    status: row.status === RedPacketStatus.VALID && row.remainNumber > 0 && !expired ? 1 : 0,
    isDone: !unpaid && (row.remainNumber === 0 || row.status !== RedPacketStatus.VALID || expired),
    isExpired: expired,
    expiredAt: unpaid ? '' : row.expiresAt,
    content: row.content,
    mine: mine ? { amount: formatMoney(Number(mine.amountCents)), receivedAt: mine.receivedAt ?? '' } : null,
    receivers: list.map((r) => ({
      userId: r.userId!,
      nickname: r.nickname,
      avatar: r.avatar,
      amount: formatMoney(Number(r.amountCents)),
      receivedAt: r.receivedAt ?? '',
    })),
    unpaid,
    order: order ?? null,
  };
}

/** check.user.get.redpacket: whether the viewer got a packet of the thread and how much. */
export async function checkUserRedPacket(
  ctx: AppContext,
  viewer: ViewerContext,
  threadId: number,
): Promise<CheckRedPacketResult> {
  const user = requireUser(viewer);
  const thread = await findThread(ctx.db, threadId);
  assertCanReadThread(viewer, thread);
  const packet = await findRedPacketOfThread(ctx.db, threadId);
  if (!packet) throw new AppError(Code.INVALID_PARAMETER, msg('threadParts.redPacketNone'));
  const share = await findShareOf(ctx.db, threadId, user.id);
  if (!share) return { status: false, amount: '0.00', getRedPacketTime: '', afterGetRedPacketFirstEnter: false };
  if (share.seenAt === null) await markShareSeen(ctx.db, share.id, now());
  return {
    status: true,
    amount: formatMoney(Number(share.amountCents)),
    getRedPacketTime: share.receivedAt ?? '',
    afterGetRedPacketFirstEnter: share.seenAt === null,
  };
}
