import type { AppContext } from './context.js';
import { subscribeLiveDelivery } from './modules/dialogs/live.subscriber.js';
import { subscribeNotifications } from './modules/notifications/notifications.subscriber.js';
import { subscribeOrderExpiry } from './modules/orders/order-expiry.js';
import { subscribeWebhooks } from './modules/webhooks/webhooks.subscriber.js';

/**
 * Who hears the domain events (core/events), registered on every app before it serves: the one place that knows
 * both the producers' events and their listeners. Plugins subscribe through their context (plugin-sdk).
 */
export function subscribeToEvents(ctx: AppContext): void {
  subscribeNotifications(ctx);
  subscribeLiveDelivery(ctx);
  subscribeOrderExpiry(ctx);
  subscribeWebhooks(ctx);
}
