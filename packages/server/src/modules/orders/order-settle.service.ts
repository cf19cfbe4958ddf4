import { Code, OrderType, WalletChangeType, type DomainEventPayload, type WalletChangeTypeValue } from '@luntan/shared';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, Order } from '../../db/schema.js';
import { readSiteSettings } from '../settings/index.js';
import { applyChange } from '../wallet/index.js';
import {
  claimOrderPaid,
  insertPurchase,
  insertReceipt,
  markOrderRefunded,
  markReceiptReturned,
  orderTitle,
  readGroupDays,
  readMembership,
  readPaidUntil,
  replaceMemberships,
  setJoining,
} from './orders.repository.js';
import { groupGone, heldForEver } from './orders.service.js';
import { msg } from '../../i18n/index.js';

/*
 * Settling a payment: the order marked paid and what it bought delivered in one transaction, and money that could
 * not buy anything returned to the payer's wallet (docs/money.md).
 */

/** Joining paid "for ever" lasts until this time. */
const FOREVER = '9999-12-31T23:59:59.999Z';

const boughtAlready = () => new AppError(Code.RESOURCE_EXIST, msg('orders.youAlreadyBoughtThread'));

const EXPENSE: Partial<Record<number, WalletChangeTypeValue>> = {
  [OrderType.REWARD]: WalletChangeType.REWARD_EXPENSE,
  [OrderType.THREAD]: WalletChangeType.THREAD_EXPENSE,
  // A thread's files bought apart are in the ledger as a thread's purchase (and sale), described as its files.
  [OrderType.ATTACHMENT]: WalletChangeType.THREAD_EXPENSE,
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
    case OrderType.ATTACHMENT:
      if (side === 'payer') return en ? `Bought the files of the thread${about}` : `购买主题${about}的附件`;
      return en ? `Sale of the files of the thread${about}` : `主题${about}的附件售出`;
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
export interface ProviderPayment {
  provider: string;
  tradeNo: string;
  amountCents: number;
}

/** What became of a payment: it paid the order, it went back to the payer's wallet, or it had been seen already. */
export type SettleOutcome = 'settled' | 'returned' | 'seen' | 'notPayable';

/**
 * Marks the order paid and delivers what it bought, in one transaction: the wallet debit (when paid from the wallet),
 * the payee's share, the recharge, the group, the joining, and the purchase row (one per member and paid thread: the
 * database refuses a second). From the wallet, a payment that cannot buy changes nothing: 'notPayable' (paid or
 * expired meanwhile), or -4005 when the thread was bought by another order. From a provider the money has already
 * come in: the payment is recorded once (a callback delivered again is 'seen'), and when it cannot buy (the order is
 * paid, the thread bought by another order, or the paid group deleted meanwhile: -4004 from the wallet) it goes back
 * to the payer's wallet ('returned').
 */
export async function settle(
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
      const recorded = await insertReceipt(trx, {
        provider: received.provider,
        tradeNo: received.tradeNo,
        orderId: order.id,
        amountCents: received.amountCents,
        at,
      });
      if (!recorded) return 'seen';
    }
    // Money that came in through a provider pays an order that expired, failed or was closed meanwhile too.
    const claimed = await claimOrderPaid(trx, order.id, {
      paymentType: payment.paymentType,
      tradeNo: received?.tradeNo ?? null,
      fromProvider: received !== undefined,
      at,
    });
    if (!claimed) {
      if (!received) return 'notPayable';
      await returnToWallet(ctx.events, trx, order, received, title, locale, 'paid');
      return 'returned';
    }

    if (order.type === OrderType.THREAD || order.type === OrderType.ATTACHMENT) {
      const bought = await insertPurchase(trx, {
        userId: order.userId,
        type: order.type,
        thingId: order.threadId!,
        orderId: order.id,
        at,
      });
      if (!bought) {
        if (!received) throw boughtAlready();
        await markOrderRefunded(trx, order.id, at);
        await returnToWallet(ctx.events, trx, order, received, title, locale, 'bought');
        return 'returned';
      }
    }
    let groupDays = 0;
    if (order.type === OrderType.GROUP) {
      // orders.group_id has no key: the group may have been deleted since the order was placed.
      const days = await readGroupDays(trx, ctx.dialect, order.groupId!);
      if (days === undefined) {
        if (!received) throw groupGone();
        await markOrderRefunded(trx, order.id, at);
        await returnToWallet(ctx.events, trx, order, received, title, locale, 'gone');
        return 'returned';
      }
      // Given for ever since the order was placed (order.create refuses such a group): buying would add nothing.
      const held = await readMembership(trx, order.userId, order.groupId!);
      if (held && held.expiresAt === null) {
        if (!received) throw heldForEver();
        await markOrderRefunded(trx, order.id, at);
        await returnToWallet(ctx.events, trx, order, received, title, locale, 'bought');
        return 'returned';
      }
      groupDays = days;
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
      case OrderType.ATTACHMENT:
      case OrderType.REWARD:
        if (order.payeeId !== null && Number(order.authorAmountCents) > 0) {
          await applyChange(trx, {
            userId: order.payeeId,
            available: Number(order.authorAmountCents),
            type: order.type === OrderType.REWARD ? WalletChangeType.REWARD_INCOME : WalletChangeType.THREAD_INCOME,
            desc: describe(order, title, locale, 'payee'),
            orderId: order.id,
          });
        }
        break;
      case OrderType.GROUP:
        await joinPaidGroup(trx, order.userId, order.groupId!, groupDays, at);
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
  why: DomainEventPayload<'payment.returned'>['reason'],
): Promise<void> {
  const en = locale === 'en';
  const about = title ? (en ? ` "${title}"` : `“${title}”`) : '';
  const desc = {
    bought: en ? `Paid again for${about}, already bought: returned` : `重复购买${about}，支付已退回`,
    paid: en ? `Order ${order.orderSn} paid twice: returned` : `订单 ${order.orderSn} 重复支付，已退回`,
    gone: en
      ? `The group of order ${order.orderSn} was deleted: payment returned`
      : `订单 ${order.orderSn} 的用户组已删除，支付已退回`,
  }[why];
  await applyChange(trx, {
    userId: order.userId,
    available: received.amountCents,
    type: WalletChangeType.PAYMENT_RETURNED,
    desc,
    orderId: order.id,
  });
  await markReceiptReturned(trx, received.provider, received.tradeNo);
  await events.emit(trx, 'payment.returned', { orderId: order.id, userId: order.userId, reason: why });
}

const addDays = (from: string, days: number) => new Date(Date.parse(from) + days * 86_400_000).toISOString();

/**
 * Moves the member into the paid group for its days (extending a membership still running); 0 days: for ever. A
 * membership held for ever never comes here (settle returns the payment), but should one, it stays for ever.
 */
async function joinPaidGroup(
  trx: Transaction<DB>,
  userId: number,
  groupId: number,
  days: number,
  at: string,
): Promise<void> {
  const held = await readMembership(trx, userId, groupId);
  const heldForEver = held !== undefined && held.expiresAt === null;
  const from = held?.expiresAt && held.expiresAt > at ? held.expiresAt : at;
  const expiresAt = heldForEver || days <= 0 ? null : addDays(from, days);
  // The paid group replaces the member's groups; when it ends they read as the default group (groups.repository).
  await replaceMemberships(trx, userId, groupId, expiresAt);
}

async function extendJoining(trx: Transaction<DB>, userId: number, days: number, at: string): Promise<void> {
  const paidUntil = await readPaidUntil(trx, userId);
  const from = paidUntil && paidUntil > at ? paidUntil : at;
  await setJoining(trx, userId, at, days > 0 ? addDays(from, days) : FOREVER);
}
