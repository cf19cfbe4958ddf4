import type { AppContext } from './context.js';
import { subscribeLiveDelivery } from './modules/dialogs/index.js';
import { subscribeNotifications } from './modules/notifications/index.js';
import { subscribeOrderExpiry } from './modules/orders/index.js';
import { subscribeRedPackets } from './modules/red-packets/index.js';
import { subscribeRerendering } from './modules/rerender/index.js';
import { subscribeBountyExpiry } from './modules/bounty/index.js';
import { subscribePlugins } from './modules/plugins/index.js';
import { subscribeSearchIndexing } from './modules/search/index.js';
import { subscribeTopics } from './modules/topics/index.js';
import { subscribeWebhooks } from './modules/webhooks/index.js';
import { subscribeLinkPreviews } from './modules/link-previews/index.js';
import { subscribePush } from './modules/push/index.js';

/**
 * Who hears the domain events (core/events), registered on every app before it serves: the one place that knows
 * both the producers' events and their listeners. Plugins hear them through the `plugins` subscriber, which calls
 * the handlers their server modules registered with `ctx.events.on` (plugin-sdk).
 */
export function subscribeToEvents(ctx: AppContext): void {
  subscribeNotifications(ctx);
  subscribeLiveDelivery(ctx);
  subscribeOrderExpiry(ctx);
  subscribeRedPackets(ctx);
  subscribeBountyExpiry(ctx);
  subscribeSearchIndexing(ctx);
  subscribeRerendering(ctx);
  subscribeTopics(ctx);
  subscribeWebhooks(ctx);
  subscribeLinkPreviews(ctx, ctx.linkPreviews);
  subscribePush(ctx);
  subscribePlugins(ctx);
}
