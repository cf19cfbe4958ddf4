import {
  Code,
  formatMoney,
  GroupId,
  ORDER_EXPIRY_MS,
  OrderStatus,
  OrderType,
  parseMoney,
  PayType,
  WalletChangeType,
  type OrderCreateBody,
  type OrderInfo,
  type Page,
  type TradePayResult,
  type WalletChangeTypeValue,
} from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { expireOrder } from './order-expiry.js';
import { AppError, forbidden, invalidField, notFound } from '../../core/errors.js';
import { inMs, now } from '../../core/time.js';
import type { DB, Order } from '../../db/schema.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import { readSiteSettings } from '../settings/settings.service.js';
import { threadExistsFor } from '../threads/thread.policy.js';
import { checkPayPassword } from '../wallet/wallet.service.js';
import { applyChange, newSerial } from '../wallet/ledger.js';
import { providerForType } from '../payments/payments.service.js';
import type { PaymentNotice, PaymentStart, PaymentTypeValue } from '../payments/providers/types.js';

/*
 * Orders: what a member buys (a thread, a reward, a group, the site's joining, a recharge), paid from the wallet or
 * through a provider. An order is paid exactly once: every change of its status is a conditional UPDATE on the
 * status it expects, and what the payment buys happens in the same transaction (docs/money.md).
 */

/** The most a reward may be, in cents. */
export const REWARD_MAX_CENTS = 1_000_000;
/** Joining paid "for ever" lasts until this time. */
const FOREVER = '9999-12-31T23:59:59.999Z';

type Db = Kysely<DB> | Transaction<DB>;

const alreadyPaid = () =>
  new AppError(
    Code.PAYMENT_FAILED,
    { zh: '订单已支付', en: 'This order has already been paid' },
    { data: { reason: 'paid' } },
  );
const orderExpired = () =>
  new AppError(Code.RESOURCE_EXPIRED, { zh: '订单已过期，请重新下单', en: 'This order has expired: place a new one' });
const orderClosed = () =>
  new AppError(Code.PAYMENT_FAILED, { zh: '订单已关闭', en: 'This order is closed' }, { data: { reason: 'closed' } });
const orderNotFound = () => notFound({ zh: '订单不存在', en: 'order not found' });
const boughtAlready = () =>
  new AppError(Code.RESOURCE_EXIST, { zh: '你已购买过这个主题', en: 'You have already bought this thread' });

/** The status as of now: a pending order past its time reads as expired (and is marked so when next touched). */
const effectiveStatus = (o: Pick<Order, 'status' | 'expiresAt'>, at = now()) =>
  o.status === OrderStatus.PENDING && o.expiresAt <= at ? OrderStatus.EXPIRED : o.status;

async function orderTitle(db: Db, o: Order): Promise<string> {
  if (o.threadId !== null) {
    const t = await db.selectFrom('threads').select('title').where('id', '=', o.threadId).executeTakeFirst();
    return t?.title ?? '';
  }
  if (o.groupId !== null) {
    const g = await db.selectFrom('groups').select('name').where('id', '=', o.groupId).executeTakeFirst();
    return g?.name ?? '';
  }
  return '';
}

export function presentOrder(o: Order, title: string): OrderInfo {
  return {
    id: o.id,
    orderSn: o.orderSn,
    type: o.type,
    status: effectiveStatus(o),
    amount: formatMoney(Number(o.amountCents)),
    authorAmount: formatMoney(Number(o.authorAmountCents)),
    masterAmount: formatMoney(Number(o.masterAmountCents)),
    userId: o.userId,
    payeeId: o.payeeId,
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

function moneySetting(site: Record<string, unknown>, key: string, fallback: number): number {
  return parseMoney(String(site[key] ?? '')) ?? fallback;
}

/** The author's share of a sale or reward by the site's split (tenths); the site keeps the rest, so no cent is lost. */
export function split(amount: number, authorScale: unknown): { author: number; master: number } {
  const scale = Math.min(10, Math.max(0, Math.trunc(Number(authorScale ?? 10))));
  const author = Math.floor((amount * scale) / 10);
  return { author, master: amount - author };
}

async function readableThread(db: Db, viewer: ViewerContext, threadId: number | undefined) {
  if (!threadId) throw invalidField('threadId', { zh: '请指定主题', en: 'Say which thread' });
  const thread = await db
    .selectFrom('threads')
    .select(['id', 'categoryId', 'userId', 'isDraft', 'isApproved', 'deletedAt', 'priceCents', 'title'])
    .where('id', '=', threadId)
    .executeTakeFirst();
  if (!thread || !threadExistsFor(viewer, thread) || thread.isDraft === 1 || thread.isApproved !== 1) {
    throw notFound({ zh: '主题不存在', en: 'thread not found' });
  }
  return thread;
}

/** The paid order by which the member bought a thing (a paid thread), if they did. */
async function purchaseOrder(db: Db, userId: number, type: number, thingId: number): Promise<Order | undefined> {
  return db
    .selectFrom('purchases as p')
    .innerJoin('orders as o', 'o.id', 'p.orderId')
    .selectAll('o')
    .where('p.userId', '=', userId)
    .where('p.type', '=', type)
    .where('p.thingId', '=', thingId)
    .executeTakeFirst();
}

/** An unpaid order is reused while at least this long is left to pay it. */
const REUSE_MIN_LEFT_MS = 2 * 60 * 1000;

/** The member's unpaid order for the same thing and amount, with time left to pay it. */
async function findUnpaidOrder(
  db: Db,
  o: {
    userId: number;
    type: number;
    amountCents: number;
    threadId: number | null;
    groupId: number | null;
    isAnonymous: number;
  },
): Promise<Order | undefined> {
  let q = db
    .selectFrom('orders')
    .selectAll()
    .where('userId', '=', o.userId)
    .where('type', '=', o.type)
    .where('status', '=', OrderStatus.PENDING)
    .where('amountCents', '=', o.amountCents)
    .where('isAnonymous', '=', o.isAnonymous)
    .where('expiresAt', '>', inMs(REUSE_MIN_LEFT_MS));
  q = o.threadId === null ? q.where('threadId', 'is', null) : q.where('threadId', '=', o.threadId);
  q = o.groupId === null ? q.where('groupId', 'is', null) : q.where('groupId', '=', o.groupId);
  return q.orderBy('id', 'desc').executeTakeFirst();
}

/** POST /api/v3/order.create: checks what is bought and makes a pending order (10 minutes to pay). */
export async function createOrder(ctx: AppContext, viewer: ViewerContext, body: OrderCreateBody): Promise<OrderInfo> {
  const { db } = ctx;
  const user = requireUser(viewer);
  // Paying to join is what a member who has not paid may do; everything else needs order.create.
  if (body.type !== OrderType.REGISTER && !can(viewer, 'order.create')) throw forbidden();
  const site = await readSiteSettings(db);
  let amount: number;
  let payeeId: number | null = null;
  let threadId: number | null = null;
  let groupId: number | null = null;
  let shares = { author: 0, master: 0 };

  switch (body.type) {
    case OrderType.RECHARGE: {
      const min = moneySetting(site, 'rechargeMinSum', 100);
      const max = moneySetting(site, 'rechargeMaxSum', 1_000_000);
      amount = body.amount ?? 0;
      if (!body.amount) throw invalidField('amount', { zh: '请输入充值金额', en: 'Enter the amount to recharge' });
      if (amount < min || amount > max) {
        throw invalidField('amount', {
          zh: `充值金额需要在 ${formatMoney(min)} 到 ${formatMoney(max)} 元之间`,
          en: `The amount must be between ${formatMoney(min)} and ${formatMoney(max)}`,
        });
      }
      break;
    }
    case OrderType.THREAD: {
      const thread = await readableThread(db, viewer, body.threadId);
      if (Number(thread.priceCents) <= 0) {
        throw invalidField('threadId', { zh: '这个主题是免费的', en: 'This thread is free' });
      }
      if (thread.userId === user.id) {
        throw invalidField('threadId', { zh: '不能购买自己的主题', en: 'You cannot buy your own thread' });
      }
      // Bought already: the order that bought it is the answer (status paid), not a second purchase.
      const bought = await purchaseOrder(db, user.id, OrderType.THREAD, thread.id);
      if (bought) return presentOrder(bought, thread.title);
      amount = Number(thread.priceCents);
      payeeId = thread.userId;
      threadId = thread.id;
      shares = split(amount, site.siteAuthorScale);
      break;
    }
    case OrderType.REWARD: {
      const thread = await readableThread(db, viewer, body.threadId);
      if (thread.userId === user.id) {
        throw invalidField('threadId', { zh: '不能打赏自己的主题', en: 'You cannot reward your own thread' });
      }
      amount = body.amount ?? body.rewardAmount ?? 0;
      if (amount <= 0) throw invalidField('amount', { zh: '请输入打赏金额', en: 'Enter the amount of the reward' });
      if (amount > REWARD_MAX_CENTS) {
        throw invalidField('amount', {
          zh: `打赏金额不能超过 ${formatMoney(REWARD_MAX_CENTS)} 元`,
          en: `A reward may be at most ${formatMoney(REWARD_MAX_CENTS)}`,
        });
      }
      payeeId = thread.userId;
      threadId = thread.id;
      shares = split(amount, site.siteAuthorScale);
      break;
    }
    case OrderType.GROUP: {
      if (!body.groupId) throw invalidField('groupId', { zh: '请指定用户组', en: 'Say which group' });
      const group = await db.selectFrom('groups').selectAll().where('id', '=', body.groupId).executeTakeFirst();
      if (!group || group.isPaid !== 1 || Number(group.feeCents) <= 0 || group.id === GroupId.ADMINISTRATOR) {
        throw notFound({ zh: '没有可购买的这个用户组', en: 'There is no such group to buy' });
      }
      if (viewer.isAdmin) {
        throw invalidField('groupId', {
          zh: '管理员已拥有全部权限，无需购买用户组',
          en: 'Administrators hold every permission already',
        });
      }
      amount = Number(group.feeCents);
      groupId = group.id;
      shares = { author: 0, master: amount };
      break;
    }
    case OrderType.REGISTER: {
      amount = moneySetting(site, 'sitePrice', 0);
      if (site.siteMode !== 'pay' || amount <= 0) {
        throw invalidField('type', { zh: '本站无需付费加入', en: 'This site is free to join' });
      }
      if (user.paidUntil === null || user.paidUntil > now()) {
        throw new AppError(Code.RESOURCE_EXIST, { zh: '你已加入本站', en: 'You have already joined this site' });
      }
      break;
    }
    default:
      throw invalidField('type', { zh: '不支持的订单类型', en: 'Unknown order type' });
  }

  const isAnonymous = body.isAnonymous === true || body.isAnonymous === 1 ? 1 : 0;
  // The pay dialog opened again for the same thing: the member's unpaid order for it is still the one to pay.
  const unpaid = await findUnpaidOrder(db, {
    userId: user.id,
    type: body.type,
    amountCents: amount,
    threadId,
    groupId,
    isAnonymous,
  });
  if (unpaid) return presentOrder(unpaid, await orderTitle(db, unpaid));

  const at = now();
  const order = await ctx.db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('orders')
      .values({
        orderSn: newSerial(),
        userId: user.id,
        payeeId,
        type: body.type,
        amountCents: amount,
        authorAmountCents: shares.author,
        masterAmountCents: shares.master,
        threadId,
        groupId,
        isAnonymous,
        paymentType: null,
        createdAt: at,
        updatedAt: at,
        expiresAt: inMs(ORDER_EXPIRY_MS),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // Its timer: at its expiry an order nobody paid is marked expired (order-expiry.ts).
    await ctx.events.emit(
      trx,
      'order.expiry_due',
      { orderId: created.id, userId: created.userId },
      { dueAt: created.expiresAt },
    );
    return created;
  });
  return presentOrder(order, await orderTitle(db, order));
}

export async function findOrder(db: Db, orderSn: string): Promise<Order | undefined> {
  return db.selectFrom('orders').selectAll().where('orderSn', '=', orderSn).executeTakeFirst();
}

/** GET /api/v3/order.detail: my order (administrators: any). */
export async function readOrder(db: Kysely<DB>, viewer: ViewerContext, orderSn: string): Promise<OrderInfo> {
  const user = requireUser(viewer);
  const order = await findOrder(db, orderSn);
  if (!order || (order.userId !== user.id && !viewer.isAdmin)) throw orderNotFound();
  return presentOrder(order, await orderTitle(db, order));
}

export async function listOrders(
  db: Kysely<DB>,
  userId: number,
  query: { page: number; perPage: number; filter: { type?: number | undefined; status?: number | undefined } },
): Promise<Page<OrderInfo>> {
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
  const pageData = await Promise.all(rows.map(async (o) => presentOrder(o, await orderTitle(db, o))));
  const totalCount = Number(count);
  return { pageData, currentPage: page, perPage, totalCount, totalPage: Math.ceil(totalCount / perPage) };
}

/** Marks a pending order past its time as expired (once), and throws what its status means for paying it. */
async function assertPayable(ctx: AppContext, order: Order): Promise<void> {
  if (order.status === OrderStatus.PENDING && order.expiresAt <= now()) {
    await expireOrder(ctx, order.id);
    throw orderExpired();
  }
  if (order.status === OrderStatus.PAID) throw alreadyPaid();
  if (order.status === OrderStatus.EXPIRED) throw orderExpired();
  if (order.status !== OrderStatus.PENDING) throw orderClosed();
}

const EXPENSE: Partial<Record<number, WalletChangeTypeValue>> = {
  [OrderType.REWARD]: WalletChangeType.REWARD_EXPENSE,
  [OrderType.THREAD]: WalletChangeType.THREAD_EXPENSE,
  [OrderType.GROUP]: WalletChangeType.GROUP_EXPENSE,
  [OrderType.REGISTER]: WalletChangeType.REGISTER_EXPENSE,
};

/** The ledger's words for an order, in the site's language (a ledger row is written once). */
function describe(order: Order, title: string, locale: string, side: 'payer' | 'payee'): string {
  const en = locale === 'en';
  const about = title ? (en ? ` "${title}"` : `“${title}”`) : '';
  switch (order.type) {
    case OrderType.RECHARGE:
      return en ? 'Recharge' : '充值';
    case OrderType.THREAD:
      if (side === 'payer') return en ? `Bought the thread${about}` : `购买主题${about}`;
      return en ? `Sale of the thread${about}` : `主题${about}售出`;
    case OrderType.REWARD:
      if (side === 'payer') return en ? `Rewarded the thread${about}` : `打赏主题${about}`;
      return en ? `Reward for the thread${about}` : `主题${about}收到打赏`;
    case OrderType.GROUP:
      return en ? `Bought the group${about}` : `购买用户组${about}`;
    case OrderType.REGISTER:
      return en ? 'Joining fee' : '付费加入站点';
    default:
      return en ? 'Order' : '订单';
  }
}

/** A payment reported by a provider: which one, its transaction number, and the amount that came in. */
interface ProviderPayment {
  provider: string;
  tradeNo: string;
  amountCents: number;
}

/** What became of a payment: it paid the order, it went back to the payer's wallet, or it had been seen already. */
type SettleOutcome = 'settled' | 'returned' | 'seen' | 'notPayable';

const ReceiptOutcome = { SETTLED: 1, RETURNED: 2 } as const;

/**
 * Marks the order paid and delivers what it bought, in one transaction: the wallet debit (when paid from the wallet),
 * the payee's share, the recharge, the group, the joining, and the purchase row (one per member and paid thread: the
 * database refuses a second). From the wallet, a payment that cannot buy changes nothing: 'notPayable' (paid or
 * expired meanwhile), or -4005 when the thread was bought by another order. From a provider the money has already
 * come in: the payment is recorded once (a callback delivered again is 'seen'), and when it cannot buy (the order is
 * paid, or the thread bought by another order) it goes back to the payer's wallet ('returned').
 */
async function settle(
  ctx: AppContext,
  order: Order,
  payment: { paymentType: number; fromWallet: boolean; provider?: ProviderPayment },
): Promise<SettleOutcome> {
  const site = await readSiteSettings(ctx.db);
  const locale = String(site.siteLocale ?? 'zh');
  const title = await orderTitle(ctx.db, order);
  const received = payment.provider;
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<SettleOutcome> => {
    const at = now();
    if (received) {
      const recorded = await trx
        .insertInto('paymentReceipts')
        .values({
          provider: received.provider,
          tradeNo: received.tradeNo,
          orderId: order.id,
          amountCents: received.amountCents,
          outcome: ReceiptOutcome.SETTLED,
          createdAt: at,
        })
        .onConflict((oc) => oc.columns(['provider', 'tradeNo']).doNothing())
        .executeTakeFirst();
      if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0) return 'seen';
    }
    let claim = trx
      .updateTable('orders')
      .set({
        status: OrderStatus.PAID,
        paymentType: payment.paymentType,
        tradeNo: received?.tradeNo ?? null,
        paidAt: at,
        updatedAt: at,
      })
      .where('id', '=', order.id);
    // Money that came in through a provider pays an order that expired, failed or was closed meanwhile too.
    claim = received
      ? claim.where('status', 'in', [
          OrderStatus.PENDING,
          OrderStatus.EXPIRED,
          OrderStatus.FAILED,
          OrderStatus.CANCELLED,
        ])
      : claim.where('status', '=', OrderStatus.PENDING).where('expiresAt', '>', at);
    const claimed = await claim.executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      if (!received) return 'notPayable';
      await returnToWallet(ctx.events, trx, order, received, title, locale, 'paid');
      return 'returned';
    }

    if (order.type === OrderType.THREAD) {
      const bought = await trx
        .insertInto('purchases')
        .values({
          userId: order.userId,
          type: OrderType.THREAD,
          thingId: order.threadId!,
          orderId: order.id,
          createdAt: at,
        })
        .onConflict((oc) => oc.columns(['userId', 'type', 'thingId']).doNothing())
        .executeTakeFirst();
      if (Number(bought.numInsertedOrUpdatedRows ?? 0) === 0) {
        if (!received) throw boughtAlready();
        await trx
          .updateTable('orders')
          .set({ status: OrderStatus.REFUNDED, updatedAt: at })
          .where('id', '=', order.id)
          .execute();
        await returnToWallet(ctx.events, trx, order, received, title, locale, 'bought');
        return 'returned';
      }
    }
    const amount = Number(order.amountCents);
    if (payment.fromWallet) {
      const type = EXPENSE[order.type];
      if (!type) throw new Error('a recharge cannot be paid from the wallet');
      await applyChange(trx, {
        userId: order.userId,
        available: -amount,
        type,
        desc: describe(order, title, locale, 'payer'),
        orderId: order.id,
        requireActive: true,
      });
    }
    switch (order.type) {
      case OrderType.RECHARGE:
        await applyChange(trx, {
          userId: order.userId,
          available: amount,
          type: WalletChangeType.RECHARGE,
          desc: describe(order, title, locale, 'payer'),
          orderId: order.id,
        });
        break;
      case OrderType.THREAD:
      case OrderType.REWARD:
        if (order.payeeId !== null && Number(order.authorAmountCents) > 0) {
          await applyChange(trx, {
            userId: order.payeeId,
            available: Number(order.authorAmountCents),
            type: order.type === OrderType.THREAD ? WalletChangeType.THREAD_INCOME : WalletChangeType.REWARD_INCOME,
            desc: describe(order, title, locale, 'payee'),
            orderId: order.id,
          });
        }
        break;
      case OrderType.GROUP:
        await joinPaidGroup(trx, order.userId, order.groupId!, at);
        break;
      case OrderType.REGISTER:
        await extendJoining(trx, order.userId, Number(site.siteExpire) || 0, at);
        break;
    }
    await ctx.events.emit(trx, 'order.paid', {
      orderId: order.id,
      userId: order.userId,
      payeeId: order.payeeId,
      type: order.type,
      threadId: order.threadId,
      amountCents: Number(order.amountCents),
    });
    return 'settled';
  });
  return outcome;
}

/** Money from a provider that could not buy what it was for goes back to the payer's wallet (a ledger row). */
async function returnToWallet(
  events: AppContext['events'],
  trx: Transaction<DB>,
  order: Order,
  received: ProviderPayment,
  title: string,
  locale: string,
  why: 'paid' | 'bought',
): Promise<void> {
  const en = locale === 'en';
  const about = title ? (en ? ` "${title}"` : `“${title}”`) : '';
  await applyChange(trx, {
    userId: order.userId,
    available: received.amountCents,
    type: WalletChangeType.PAYMENT_RETURNED,
    desc:
      why === 'bought'
        ? en
          ? `Paid again for${about}, already bought: returned`
          : `重复购买${about}，支付已退回`
        : en
          ? `Order ${order.orderSn} paid twice: returned`
          : `订单 ${order.orderSn} 重复支付，已退回`,
    orderId: order.id,
  });
  await trx
    .updateTable('paymentReceipts')
    .set({ outcome: ReceiptOutcome.RETURNED })
    .where('provider', '=', received.provider)
    .where('tradeNo', '=', received.tradeNo)
    .execute();
  await events.emit(trx, 'payment.returned', { orderId: order.id, userId: order.userId, reason: why });
}

const addDays = (from: string, days: number) => new Date(Date.parse(from) + days * 86_400_000).toISOString();

/** Moves the member into the paid group for its days (extending a membership still running); 0 days: for ever. */
async function joinPaidGroup(trx: Transaction<DB>, userId: number, groupId: number, at: string): Promise<void> {
  const group = await trx.selectFrom('groups').select('days').where('id', '=', groupId).executeTakeFirstOrThrow();
  const held = await trx
    .selectFrom('groupUser')
    .select('expiresAt')
    .where('userId', '=', userId)
    .where('groupId', '=', groupId)
    .executeTakeFirst();
  const from = held?.expiresAt && held.expiresAt > at ? held.expiresAt : at;
  const expiresAt = group.days > 0 ? addDays(from, group.days) : null;
  // The paid group replaces the member's groups; when it ends they read as the default group (groups.repository).
  await trx.deleteFrom('groupUser').where('userId', '=', userId).execute();
  await trx.insertInto('groupUser').values({ userId, groupId, expiresAt }).execute();
}

async function extendJoining(trx: Transaction<DB>, userId: number, days: number, at: string): Promise<void> {
  const user = await trx.selectFrom('users').select('paidUntil').where('id', '=', userId).executeTakeFirstOrThrow();
  const from = user.paidUntil && user.paidUntil > at ? user.paidUntil : at;
  await trx
    .updateTable('users')
    .set({ paidAt: at, paidUntil: days > 0 ? addDays(from, days) : FOREVER, updatedAt: at })
    .where('id', '=', userId)
    .execute();
}

/** Where the payer's browser goes back to after a provider's page: a path on this site. */
function returnPathOf(order: Order, asked: string | undefined): string {
  if (asked && /^\/(?![/\\])[^\s]*$/.test(asked)) return asked;
  if (order.threadId !== null) return `/thread/${order.threadId}`;
  if (order.type === OrderType.REGISTER) return '/';
  return '/wallet';
}

/** POST /api/v3/trade/pay/order */
export async function payOrder(
  ctx: AppContext,
  viewer: ViewerContext,
  body: { orderSn: string; paymentType: number; payPassword?: string | undefined; returnPath?: string | undefined },
  origin: string,
  clientIp: string,
): Promise<TradePayResult> {
  const user = requireUser(viewer);
  const order = await findOrder(ctx.db, body.orderSn);
  if (!order || order.userId !== user.id) throw orderNotFound();
  if (order.type !== OrderType.REGISTER && !can(viewer, 'trade.pay.order')) throw forbidden();
  await assertPayable(ctx, order);

  if (body.paymentType === PayType.WALLET) {
    if (order.type === OrderType.RECHARGE) {
      throw invalidField('paymentType', {
        zh: '充值不能用钱包支付',
        en: 'A recharge cannot be paid from the wallet',
      });
    }
    await checkPayPassword(ctx.db, user.id, body.payPassword);
    if ((await settle(ctx, order, { paymentType: PayType.WALLET, fromWallet: true })) !== 'settled') {
      // Paid (or expired) meanwhile: say which.
      await assertPayable(ctx, (await findOrder(ctx.db, order.orderSn))!);
      throw alreadyPaid();
    }
    return { orderSn: order.orderSn, status: OrderStatus.PAID, paymentType: PayType.WALLET };
  }

  const provider = await providerForType(ctx, body.paymentType);
  if (!provider) {
    throw invalidField('paymentType', {
      zh: '本站没有开启这种支付方式',
      en: 'This site does not take this payment method',
    });
  }
  await ctx.db
    .updateTable('orders')
    .set({ paymentType: body.paymentType, updatedAt: now() })
    .where('id', '=', order.id)
    .where('status', '=', OrderStatus.PENDING)
    .execute();
  const title = (await orderTitle(ctx.db, order)) || (order.type === OrderType.RECHARGE ? 'Recharge' : 'Order');
  let start: PaymentStart;
  try {
    start = await provider.createPayment({
      orderSn: order.orderSn,
      amountCents: Number(order.amountCents),
      subject: [...title].slice(0, 100).join(''),
      paymentType: body.paymentType as PaymentTypeValue,
      clientIp,
      notifyUrl: `${origin}/api/v3/pay/notify/${provider.name}`,
      returnUrl: `${origin}${returnPathOf(order, body.returnPath)}`,
      expiresAt: order.expiresAt,
    });
  } catch (err) {
    ctx.log.error({ err, orderSn: order.orderSn, provider: provider.name }, 'a payment could not be started');
    throw new AppError(Code.PAYMENT_FAILED, {
      zh: '支付服务暂时不可用，请稍后再试或换一种支付方式',
      en: 'The payment service is not available now: try again later or choose another method',
    });
  }
  return {
    orderSn: order.orderSn,
    status: OrderStatus.PENDING,
    paymentType: body.paymentType,
    ...(start.kind === 'redirect' ? { payUrl: start.url } : { qrCode: start.codeUrl }),
  };
}

/**
 * Applies what a verified callback reports, idempotently: each payment (provider and transaction number) counts
 * once. A payment of the right amount settles its order (one that expired or failed meanwhile too: the money did come
 * in); money for an order that cannot take it (paid already, or a thread the member bought by another order) goes
 * back to the payer's wallet, with a notice. A failure marks a pending order failed; a refund's "closed" notice never
 * unpays an order. Answers false when the notice cannot be applied (no such order, another amount): the provider is
 * told to try again and it is logged.
 */
export async function applyPaymentNotice(
  ctx: AppContext,
  providerName: string,
  notice: PaymentNotice,
): Promise<boolean> {
  const order = await findOrder(ctx.db, notice.orderSn);
  if (!order) {
    ctx.log.warn({ provider: providerName, orderSn: notice.orderSn }, 'a payment callback names no order of ours');
    return false;
  }
  if (notice.amountCents !== Number(order.amountCents)) {
    ctx.log.error(
      { provider: providerName, orderSn: order.orderSn, reported: notice.amountCents },
      'a payment callback reports another amount',
    );
    return false;
  }
  if (notice.paid) {
    const outcome = await settle(ctx, order, {
      paymentType: order.paymentType ?? PayType.SANDBOX,
      fromWallet: false,
      provider: { provider: providerName, tradeNo: notice.tradeNo, amountCents: notice.amountCents },
    });
    if (outcome === 'returned') {
      const current = await findOrder(ctx.db, order.orderSn);
      const why = current?.status === OrderStatus.REFUNDED ? 'bought' : 'paid';
      ctx.log.warn(
        { provider: providerName, orderSn: order.orderSn, tradeNo: notice.tradeNo, why },
        "a payment that could not buy its order went back to the payer's wallet",
      );
    }
    return true;
  }
  await ctx.db
    .updateTable('orders')
    .set({ status: OrderStatus.FAILED, updatedAt: now() })
    .where('id', '=', order.id)
    .where('status', '=', OrderStatus.PENDING)
    .execute();
  return true;
}
