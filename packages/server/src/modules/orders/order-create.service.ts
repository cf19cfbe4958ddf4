import {
  Code,
  formatMoney,
  GroupId,
  OrderType,
  parseMoney,
  type OrderCreateBody,
  type OrderInfo,
} from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError, forbidden, invalidField, notFound } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import { readSiteSettings } from '../settings/index.js';
import { threadExistsFor } from '../threads/index.js';
import { filesPriceCents } from '../media/index.js';
import { placeOrder } from './order-place.service.js';
import { heldForEver, presentOrder } from './orders.service.js';
import {
  findGroup,
  findPurchaseOrder,
  findThreadToBuy,
  findUnpaidOrder,
  orderSubject,
  readMembership,
} from './orders.repository.js';
import { msg } from '../../i18n/index.js';

/* Creating orders: what may be bought, for how much, and who gets which share (docs/money.md). */

/** The most a reward may be, in cents. */
export const REWARD_MAX_CENTS = 1_000_000;

type Db = Kysely<DB> | Transaction<DB>;

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
  if (!threadId) throw invalidField('threadId', msg('orders.sayWhichThread'));
  const thread = await findThreadToBuy(db, threadId);
  if (!thread || !threadExistsFor(viewer, thread) || thread.isDraft === 1 || thread.isApproved !== 1) {
    throw notFound(msg('orders.threadNotFound'));
  }
  return thread;
}

/** An unpaid order is reused while at least this long is left to pay it. */
const REUSE_MIN_LEFT_MS = 2 * 60 * 1000;

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
      if (!body.amount) throw invalidField('amount', msg('orders.enterAmountRecharge'));
      if (amount < min || amount > max) {
        throw invalidField('amount', msg('orders.amountBetween', { min: formatMoney(min), max: formatMoney(max) }));
      }
      break;
    }
    case OrderType.THREAD: {
      const thread = await readableThread(db, viewer, body.threadId);
      if (Number(thread.priceCents) <= 0) {
        throw invalidField('threadId', msg('orders.threadFree'));
      }
      if (thread.userId === user.id) {
        throw invalidField('threadId', msg('orders.youCannotBuyOwn'));
      }
      // Bought already: the order that bought it is the answer (status paid), not a second purchase.
      const bought = await findPurchaseOrder(db, user.id, OrderType.THREAD, thread.id);
      if (bought) return presentOrder(bought, { title: thread.title, anonymous: thread.isAnonymous === 1 });
      amount = Number(thread.priceCents);
      payeeId = thread.userId;
      threadId = thread.id;
      shares = split(amount, site.siteAuthorScale);
      break;
    }
    case OrderType.ATTACHMENT: {
      // A thread's files sold apart from it (part 108's price), bought as the family's order type 7.
      const thread = await readableThread(db, viewer, body.threadId);
      const price = await filesPriceCents(db, thread.id);
      if (price <= 0) throw invalidField('threadId', msg('media.filesFree'));
      if (thread.userId === user.id) throw invalidField('threadId', msg('media.youCannotBuyOwnFiles'));
      const bought = await findPurchaseOrder(db, user.id, OrderType.ATTACHMENT, thread.id);
      if (bought) return presentOrder(bought, { title: thread.title, anonymous: thread.isAnonymous === 1 });
      amount = price;
      payeeId = thread.userId;
      threadId = thread.id;
      shares = split(amount, site.siteAuthorScale);
      break;
    }
    case OrderType.REWARD: {
      const thread = await readableThread(db, viewer, body.threadId);
      if (thread.userId === user.id) {
        throw invalidField('threadId', msg('orders.youCannotRewardOwn'));
      }
      amount = body.amount ?? body.rewardAmount ?? 0;
      if (amount <= 0) throw invalidField('amount', msg('orders.enterAmountReward'));
      if (amount > REWARD_MAX_CENTS) {
        throw invalidField('amount', msg('orders.rewardMost', { max: formatMoney(REWARD_MAX_CENTS) }));
      }
      payeeId = thread.userId;
      threadId = thread.id;
      shares = split(amount, site.siteAuthorScale);
      break;
    }
    case OrderType.GROUP: {
      if (!body.groupId) throw invalidField('groupId', msg('orders.sayWhichGroup'));
      const group = await findGroup(db, body.groupId);
      // The paid groups' list leaves out the administrators and the guests: neither is for sale.
      const unsold = group === undefined || group.id === GroupId.ADMINISTRATOR || group.id === GroupId.GUEST;
      if (!group || unsold || group.isPaid !== 1 || Number(group.feeCents) <= 0) {
        throw notFound(msg('orders.thereNoSuchGroup'));
      }
      if (viewer.isAdmin) {
        throw invalidField('groupId', msg('orders.administratorsHoldEveryPermission'));
      }
      // Held without an end (given by an administrator, or bought when it had 0 days): buying would only shorten it.
      const held = await readMembership(db, user.id, group.id);
      if (held && held.expiresAt === null) throw heldForEver();
      amount = Number(group.feeCents);
      groupId = group.id;
      shares = { author: 0, master: amount };
      break;
    }
    case OrderType.REGISTER: {
      amount = moneySetting(site, 'sitePrice', 0);
      if (site.siteMode !== 'pay' || amount <= 0) {
        throw invalidField('type', msg('orders.siteFreeJoin'));
      }
      if (user.paidUntil === null || user.paidUntil > now()) {
        throw new AppError(Code.RESOURCE_EXIST, msg('orders.youAlreadyJoinedSite'));
      }
      break;
    }
    case OrderType.RED_PACKET:
      // A red packet's order is made with its thread (thread.create with payment 'provider'), for its total.
      throw invalidField('type', msg('orders.redPacketOrderWithThread'));
    default:
      throw invalidField('type', msg('orders.unknownOrderType'));
  }

  const isAnonymous = body.isAnonymous === true || body.isAnonymous === 1 ? 1 : 0;
  // The pay dialog opened again for the same thing: the member's unpaid order for it is still the one to pay.
  const unpaid = await findUnpaidOrder(
    db,
    {
      userId: user.id,
      type: body.type,
      amountCents: amount,
      threadId,
      groupId,
      isAnonymous,
    },
    REUSE_MIN_LEFT_MS,
  );
  if (unpaid) return presentOrder(unpaid, await orderSubject(db, unpaid));

  const at = now();
  const order = await ctx.db.transaction().execute((trx) =>
    placeOrder(ctx.events, trx, {
      userId: user.id,
      payeeId,
      type: body.type,
      amountCents: amount,
      shares,
      threadId,
      groupId,
      isAnonymous,
      at,
    }),
  );
  return presentOrder(order, await orderSubject(db, order));
}
