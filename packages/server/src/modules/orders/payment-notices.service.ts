import { OrderStatus, OrderType, PayType } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import type { PaymentNotice } from '../payments/index.js';
import { settle } from './order-settle.service.js';
import { markPendingFailed } from './orders.repository.js';
import { findOrder } from './orders.service.js';

/* Providers' notices: what a verified callback reports, applied once (docs/money.md). */

/**
 * Applies what a verified callback reports, idempotently: each payment (provider and transaction number) counts
 * once. A payment of the right amount settles its order (one that expired or failed meanwhile too: the money did come
 * in); money for an order that cannot take it (paid already, a thread the member bought by another order, a paid
 * group deleted since) goes back to the payer's wallet, with a notice. A failure marks a pending order failed; a
 * refund's "closed" notice never unpays an order. Answers false when the notice cannot be applied (no such order,
 * another amount): the provider is told to try again and it is logged.
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
      const refunded = current?.status === OrderStatus.REFUNDED;
      const why = refunded ? (order.type === OrderType.GROUP ? 'gone' : 'bought') : 'paid';
      ctx.log.warn(
        { provider: providerName, orderSn: order.orderSn, tradeNo: notice.tradeNo, why },
        "a payment that could not buy its order went back to the payer's wallet",
      );
    }
    return true;
  }
  await markPendingFailed(ctx.db, order.id);
  return true;
}
