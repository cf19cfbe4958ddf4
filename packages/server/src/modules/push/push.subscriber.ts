import { NOTIFICATION_TYPES, type PushKind, type PushMessage } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { localize } from '../../core/i18n.js';
import { readSiteGate, siteBaseUrl } from '../settings/index.js';
import { pushTo } from './push.service.js';

/** The push's name on the event bus (it keys its delivery rows: never rename it). */
const PUSH_SUBSCRIBER = 'push';
const BODY_CHARS = 120;

/** The kind of push a notice is, by its type; null: notices that are not pushed (account notices, follows). */
function kindOfNotice(type: string): PushKind | null {
  if (type === 'replied') return 'reply';
  if (type === 'related') return 'mention';
  if (type === 'liked') return 'like';
  return NOTIFICATION_TYPES[type as keyof typeof NOTIFICATION_TYPES] === 'financial' ? 'financial' : null;
}

const plain = (html: string) => {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!)
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...text];
  return chars.length > BODY_CHARS ? `${chars.slice(0, BODY_CHARS).join('')}…` : text;
};

/**
 * Sends on to the member's subscribed devices what reaches their message centre: a notice (reply, mention, like,
 * financial: notification.created) and a private message (dialog.message.sent, or .approved once a held one is let
 * through), as their switches per kind allow (push.service.ts).
 */
export function subscribePush(ctx: Pick<AppContext, 'db' | 'config' | 'events' | 'log'>): void {
  ctx.events.subscribe(
    PUSH_SUBSCRIBER,
    ['notification.created', 'dialog.message.sent', 'dialog.message.approved'],
    async (event) => {
      const siteUrl = await siteBaseUrl(ctx.db, '');
      if (event.name === 'notification.created') {
        const n = await ctx.db
          .selectFrom('notifications')
          .select(['id', 'userId', 'type', 'category', 'title', 'content', 'threadId', 'postId', 'replyPostId'])
          .where('id', '=', event.payload.notificationId)
          .executeTakeFirst();
        const kind = n ? kindOfNotice(n.type) : null;
        if (!n || !kind || n.userId !== event.payload.userId) return;
        const anchor = n.replyPostId ?? n.postId;
        const message: PushMessage = {
          title: plain(n.title) || plain(n.content),
          body: n.title ? plain(n.content) : '',
          url: n.threadId ? `/thread/${n.threadId}${anchor ? `#post-${anchor}` : ''}` : `/message?type=${n.category}`,
          kind,
          tag: `notice-${n.id}`,
        };
        await pushTo(ctx, n.userId, message, siteUrl, ctx.log);
        return;
      }
      if (event.name === 'dialog.message.sent' && event.payload.held) return;
      const { messageId, senderId, recipientId, dialogId } = event.payload;
      const [row, sender, gate] = await Promise.all([
        ctx.db
          .selectFrom('dialogMessages')
          .select(['messageText', 'imageUrl'])
          .where('id', '=', messageId)
          .executeTakeFirst(),
        ctx.db.selectFrom('users').select(['nickname', 'username']).where('id', '=', senderId).executeTakeFirst(),
        readSiteGate(ctx.db),
      ]);
      if (!row || !sender) return;
      const name = sender.nickname || sender.username;
      const locale = gate.locale ?? 'zh';
      const message: PushMessage = {
        title: localize({ zh: `${name} 发来私信`, en: `${name} sent you a message` }, locale),
        body: row.messageText ? plain(row.messageText) : localize({ zh: '[图片]', en: '[Image]' }, locale),
        url: `/message?page=chat&userId=${senderId}&nickname=${encodeURIComponent(name)}`,
        kind: 'message',
        tag: `dialog-${dialogId}`,
      };
      await pushTo(ctx, recipientId, message, siteUrl, ctx.log);
    },
    // Nothing a page shows.
    { reach: 'event' },
  );
}
