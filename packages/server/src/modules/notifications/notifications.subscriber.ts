import type { DeliveredEvent, DomainEventName } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import {
  notifyAccountChanged,
  notifyBountyAwarded,
  notifyBountyExpired,
  notifyFollowed,
  notifyLiked,
  notifyOrderPaid,
  notifyPaymentReturned,
  notifyPostModerated,
  notifyPostPublished,
  notifyRedPacketReceived,
  notifyRegistrationsReviewed,
  notifyReportDecided,
  notifyThreadModerated,
  notifyThreadPublished,
  notifyWithdrawal,
} from './notifications.service.js';
import { noticeEvent } from './notice-sender.js';

/** The notifications' name on the event bus (it keys their delivery rows: never rename it). */
export const NOTIFICATIONS_SUBSCRIBER = 'notifications';

/** The events that make notices. */
const NOTICE_EVENTS = [
  'thread.created',
  'thread.updated',
  'thread.moderated',
  'post.created',
  'post.updated',
  'post.liked',
  'post.moderated',
  'user.followed',
  'user.reviewed',
  'user.changed',
  'report.handled',
  'order.paid',
  'payment.returned',
  'red_packet.received',
  'bounty.awarded',
  'bounty.expired',
  'withdrawal.reviewed',
] as const satisfies readonly DomainEventName[];
type NoticeEventName = (typeof NOTICE_EVENTS)[number];

/**
 * Notifications hear the forum's domain events and make the notices (notifications.service.ts). No module calls
 * them: each announces what happened (core/events).
 */
export function subscribeNotifications(ctx: AppContext): void {
  // Run under the event's id: a notice without a subject of its own is then told once per event (a redelivery
  // after a crash or a failure tells nobody twice).
  // Notices show on their recipients' own pages, never on a kept one (core/page-cache.ts).
  ctx.events.subscribe(
    NOTIFICATIONS_SUBSCRIBER,
    NOTICE_EVENTS,
    (event) => noticeEvent.run(event.id, () => notify(ctx, event)),
    { reach: 'event' },
  );
}

async function notify(ctx: AppContext, event: DeliveredEvent<NoticeEventName>): Promise<void> {
  switch (event.name) {
    case 'thread.created':
    case 'thread.updated':
      return notifyThreadPublished(ctx, event.payload.threadId);
    case 'thread.moderated': {
      const { actorId, threadId, action, reason } = event.payload;
      // An author who acts on their own thread (deletes it) is not told: send() passes over one's own acts.
      if (actorId !== null) await notifyThreadModerated(ctx, actorId, threadId, action, reason);
      // Approved from review: now visible, it tells those its first post mentions.
      if (action === 'approved') await notifyThreadPublished(ctx, threadId);
      return;
    }
    case 'post.created':
    case 'post.updated':
      return notifyPostPublished(ctx, event.payload.postId);
    case 'post.liked':
      return notifyLiked(ctx, event.payload.userId, event.payload.postId);
    case 'post.moderated': {
      const { actorId, postId, action, reason } = event.payload;
      if (actorId !== null) await notifyPostModerated(ctx, actorId, postId, action, reason);
      if (action === 'approved') await notifyPostPublished(ctx, postId);
      return;
    }
    case 'user.followed':
      return notifyFollowed(ctx, event.payload.userId, event.payload.followedUserId);
    case 'user.reviewed': {
      const { userId, status, rejectReason } = event.payload;
      return notifyRegistrationsReviewed(ctx, [{ id: userId, status, rejectReason }]);
    }
    case 'user.changed': {
      const { userId, actorId, before, after, reason } = event.payload;
      if (actorId === null) return;
      return notifyAccountChanged(ctx, actorId, userId, { before, after, reason });
    }
    case 'report.handled':
      return notifyReportDecided(ctx, event.payload);
    case 'order.paid':
      return notifyOrderPaid(ctx, event.payload.orderId);
    case 'payment.returned':
      return notifyPaymentReturned(ctx, event.payload.orderId, event.payload.reason);
    case 'red_packet.received':
      return notifyRedPacketReceived(ctx, event.payload);
    case 'bounty.awarded':
      return notifyBountyAwarded(ctx, event.payload);
    case 'bounty.expired':
      return notifyBountyExpired(ctx, event.payload);
    case 'withdrawal.reviewed':
      return notifyWithdrawal(ctx, event.payload);
    default:
      return;
  }
}
