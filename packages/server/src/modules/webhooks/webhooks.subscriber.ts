import { WEBHOOK_EVENT_NAMES } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { queueEvent } from './webhooks.service.js';

/**
 * Outgoing webhooks hear every domain event a hook may pick (not the server's own timers): each becomes a delivery
 * for the enabled hooks that picked it (none when no hook did), sent by the webhook dispatcher with its own retries,
 * so a slow receiver never holds the event bus.
 */
export function subscribeWebhooks(ctx: Pick<AppContext, 'db' | 'events' | 'webhooks'>): void {
  ctx.events.subscribe('webhooks', WEBHOOK_EVENT_NAMES, async (event) => {
    if ((await queueEvent(ctx.db, event)) > 0) ctx.webhooks.kick();
  });
}
