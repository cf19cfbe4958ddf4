import type {
  NotificationCategoryValue,
  NotificationItem,
  NotificationListQuery,
  NotificationType,
  Page,
  UnreadCounters,
} from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import {
  countNotifications,
  countUnreadCounters,
  deleteNotifications,
  listNotifications,
  markRead,
} from './notifications.repository.js';
import { msg } from '../../i18n/index.js';

/** The message centre: a member's notices, listed (which reads them), deleted, and counted for the header badge. */

/** GET /api/v3/notification: the viewer's notices, newest first; the listed ones become read. */
export async function listNotices(
  ctx: AppContext,
  userId: number,
  q: NotificationListQuery,
): Promise<Page<NotificationItem>> {
  const types = q.filter.type;
  const [totalCount, rows] = await Promise.all([
    countNotifications(ctx.db, userId, types),
    listNotifications(ctx.db, userId, types, (q.page - 1) * q.perPage, q.perPage),
  ]);
  const unread = rows.filter((r) => r.readAt === null).map((r) => r.id);
  if (unread.length > 0) {
    await markRead(ctx.db, userId, unread, now());
    // The viewer's other pages update their badge.
    await ctx.live.publish(userId, { kind: 'unread' });
  }
  return {
    pageData: rows.map((r) => ({
      id: r.id,
      type: r.type as NotificationType,
      category: r.category as NotificationCategoryValue,
      title: r.title,
      content: r.content,
      threadId: r.threadId,
      postId: r.postId,
      replyPostId: r.replyPostId,
      fromUser:
        r.fromUserId !== null && r.fromNickname !== null
          ? { id: r.fromUserId, nickname: r.fromNickname, avatarUrl: r.fromAvatar ?? '' }
          : null,
      readAt: r.readAt,
      createdAt: r.createdAt,
    })),
    currentPage: q.page,
    perPage: q.perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / q.perPage),
  };
}

/** POST /api/v3/notification.delete: deletes the viewer's own notices among `ids`; -4004 when none is theirs. */
export async function deleteNotices(
  ctx: AppContext,
  userId: number,
  ids: readonly number[],
): Promise<{ deleted: number }> {
  const deleted = await deleteNotifications(ctx.db, userId, ids);
  if (deleted === 0) throw notFoundField('id', msg('notifications.noSuchNotification'));
  await ctx.live.publish(userId, { kind: 'unread' });
  return { deleted };
}

/** GET /api/v3/unreadnotification: the header badge, counted from the rows themselves. */
export async function unreadCounters(ctx: AppContext, userId: number): Promise<UnreadCounters> {
  const { byCategory, dialogs: dialogMessageUnread } = await countUnreadCounters(ctx.db, userId);
  const accountUnread = byCategory.account ?? 0;
  const financialUnread = byCategory.financial ?? 0;
  const threadUnread = byCategory.thread ?? 0;
  return {
    totalUnread: dialogMessageUnread + accountUnread + financialUnread + threadUnread,
    dialogMessageUnread,
    accountUnread,
    financialUnread,
    threadUnread,
  };
}
