import { OrderType } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { fundRedPacket } from './red-packet-payment.service.js';
import { claimForPost, expireRedPacket } from './red-packets.service.js';

/** The red packets' name on the event bus (it keys their delivery rows: never rename it). */
export const RED_PACKETS_SUBSCRIBER = 'red-packets';

/**
 * A reply (post.created), a reply approved after review (post.moderated) or a like of a reply (post.liked) may earn
 * its author a packet (a reply held for review earns nothing until then); a red packet's timer
 * (red_packet.expiry_due) returns the rest to the author; a paid order of type 9 (order.paid) funds the red packet
 * it was made for and publishes its thread. Each is safe to hear twice.
 */
export function subscribeRedPackets(ctx: AppContext): void {
  ctx.events.subscribe(
    RED_PACKETS_SUBSCRIBER,
    ['post.created', 'post.moderated', 'post.liked', 'red_packet.expiry_due', 'order.paid'],
    async (event) => {
      switch (event.name) {
        case 'post.created':
          await claimForPost(ctx, event.payload.threadId, event.payload.postId);
          return;
        case 'post.moderated':
          if (event.payload.action === 'approved') {
            await claimForPost(ctx, event.payload.threadId, event.payload.postId);
          }
          return;
        case 'post.liked':
          if (!event.payload.isFirst) await claimForPost(ctx, event.payload.threadId, event.payload.postId);
          return;
        case 'red_packet.expiry_due':
          await expireRedPacket(ctx, event.payload.redPacketId);
          return;
        case 'order.paid': {
          const { orderId, userId, type, threadId, amountCents } = event.payload;
          if (type === OrderType.RED_PACKET && threadId !== null) {
            await fundRedPacket(ctx, { orderId, userId, threadId, amountCents });
          }
          return;
        }
      }
    },
    // What it writes shows on the event's thread (core/page-cache.ts).
    { reach: 'event' },
  );
}
