import type { AppContext } from '../../context.js';
import { now } from '../../core/time.js';
import { expirePendingOrder } from './orders.repository.js';

/** The orders' name on the event bus (it keys their delivery rows: never rename it). */
export const ORDERS_SUBSCRIBER = 'orders';

/**
 * Marks an unpaid order past its time as expired, once (a conditional update), announcing order.expired in the same
 * transaction. Answers whether this call expired it.
 */
export async function expireOrder(ctx: AppContext, orderId: number): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const expired = await expirePendingOrder(trx, orderId, now());
    if (expired) await ctx.events.emit(trx, 'order.expired', { orderId: expired.id, userId: expired.userId });
    return expired !== undefined;
  });
}

/** An order's timer (order.expiry_due, due at its expiry) expires it if nobody paid it meanwhile. */
export function subscribeOrderExpiry(ctx: AppContext): void {
  ctx.events.subscribe(ORDERS_SUBSCRIBER, ['order.expiry_due'], async (event) => {
    await expireOrder(ctx, event.payload.orderId);
  });
}
