import { WEBHOOK_EVENT_NAMES } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { EventBus } from '../../core/events/event-bus.js';
import type { DB } from '../../db/schema.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';
import { queueEvent } from './webhooks.service.js';

/**
 * Outgoing webhooks hear every domain event a hook may pick (not the server's own timers): each becomes a delivery
 * for the enabled hooks that picked it (none when no hook did), sent by the webhook dispatcher with its own retries,
 * so a slow receiver never holds the event bus.
 */
// The context's pieces it uses, named from their own files: the app's context (context.ts) builds the dispatcher, so
// importing it here would close a circle through this module's public face.
export function subscribeWebhooks(ctx: { db: Kysely<DB>; events: EventBus; webhooks: WebhookDispatcher }): void {
  // Its deliveries show on no page (core/page-cache.ts).
  ctx.events.subscribe(
    'webhooks',
    WEBHOOK_EVENT_NAMES,
    async (event) => {
      if ((await queueEvent(ctx.db, event)) > 0) ctx.webhooks.kick();
    },
    { reach: 'event' },
  );
}
