import { Code, OrderStatus, OrderType, PayType, type TradePayResult } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { AppError, forbidden, invalidField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { Order } from '../../db/schema.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import { checkPayPassword } from '../wallet/index.js';
import { providerForType, type PaymentStart, type PaymentTypeValue } from '../payments/index.js';
import { expireOrder } from './order-expiry.js';
import { settle } from './order-settle.service.js';
import {
  cancelPendingOrder,
  findGroup,
  orderTitle,
  readMembership,
  setPendingPaymentType,
} from './orders.repository.js';
import {
  alreadyPaid,
  findOrder,
  groupGone,
  heldForEver,
  orderClosed,
  orderExpired,
  orderNotFound,
} from './orders.service.js';
import { msg } from '../../i18n/index.js';

/* Paying an order: from the wallet (with the pay password) or by starting a provider's payment (docs/money.md). */

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

/**
 * A paid group's order whose group was deleted since it was placed (orders.group_id has no key), or that the member
 * was given for ever since, cannot be paid: it is cancelled, once, and the payer told so (-4004, -4003) before any
 * money moves or a provider's checkout starts. Money a provider still brings for it goes back to the payer's wallet
 * (settle()).
 */
async function assertGroupBuyable(ctx: AppContext, order: Order): Promise<void> {
  if (order.type !== OrderType.GROUP) return;
  const gone = !(await findGroup(ctx.db, order.groupId!));
  const held = gone ? undefined : await readMembership(ctx.db, order.userId, order.groupId!);
  if (!gone && held?.expiresAt !== null) return;
  await cancelPendingOrder(ctx.db, order.id, now());
  throw gone ? groupGone() : heldForEver();
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
  await assertGroupBuyable(ctx, order);

  if (body.paymentType === PayType.WALLET) {
    if (order.type === OrderType.RECHARGE) {
      throw invalidField('paymentType', msg('orders.rechargeCannotPaidFrom'));
    }
    if (order.type === OrderType.RED_PACKET) {
      // From the wallet a red packet is paid by its thread's write (payment 'wallet'): its order is a provider's.
      throw invalidField('paymentType', msg('orders.redPacketNotFromWallet'));
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
    throw invalidField('paymentType', msg('orders.siteDoesNotTake'));
  }
  await setPendingPaymentType(ctx.db, order.id, body.paymentType);
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
    throw new AppError(Code.PAYMENT_FAILED, msg('orders.paymentServiceNotAvailable'));
  }
  return {
    orderSn: order.orderSn,
    status: OrderStatus.PENDING,
    paymentType: body.paymentType,
    ...(start.kind === 'redirect' ? { payUrl: start.url } : { qrCode: start.codeUrl }),
  };
}
