import type { AppContext } from '../../context.js';

/** Live delivery's name on the event bus (it keys its delivery rows: never rename it). */
export const LIVE_SUBSCRIBER = 'live';

/**
 * Tells members' open pages what the domain events mean for them (core/live.ts): a new private message (to its
 * sender's other pages, and to its recipient unless it is held for review), a dialog read by the other member.
 */
export function subscribeLiveDelivery(ctx: AppContext): void {
  ctx.events.subscribe(
    LIVE_SUBSCRIBER,
    ['dialog.message.sent', 'dialog.message.approved', 'dialog.read'],
    async (event) => {
      switch (event.name) {
        case 'dialog.message.sent': {
          const { dialogId, messageId, senderId, recipientId, held } = event.payload;
          const live = { kind: 'dialogMessage' as const, dialogId, messageId };
          await ctx.live.publish(senderId, live);
          if (!held) await ctx.live.publish(recipientId, live);
          return;
        }
        case 'dialog.message.approved': {
          const { dialogId, messageId, recipientId } = event.payload;
          return ctx.live.publish(recipientId, { kind: 'dialogMessage', dialogId, messageId });
        }
        case 'dialog.read':
          await ctx.live.publish(event.payload.userId, { kind: 'unread' });
          // The other member's pages show their messages as read.
          return ctx.live.publish(event.payload.otherUserId, { kind: 'dialogRead', dialogId: event.payload.dialogId });
        default:
          return;
      }
    },
    // It writes nothing (core/page-cache.ts).
    { reach: 'event' },
  );
}
