import { z } from 'zod';
import { problem } from '../validation-messages.js';
import { labeled } from './field-labels.js';
import { idList } from './groups.js';
import { pageQuery } from './threads.js';
import {
  NOTIFICATION_TYPES,
  NOTIFICATION_TYPE_NAMES,
  type NotificationCategoryValue,
  type NotificationType,
} from '../notification-types.js';

const isNotificationType = (s: string): s is NotificationType => Object.hasOwn(NOTIFICATION_TYPES, s);
const typeNames = (s: string) =>
  s
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');

/** filter[type]: one type or several separated by commas ("replied,liked"); none or empty means every type. */
const notificationTypeFilter = labeled(
  z
    .string()
    .max(200)
    .refine(
      (s) => typeNames(s).every(isNotificationType),
      problem({ kind: 'notOneOf', values: NOTIFICATION_TYPE_NAMES }),
    )
    .transform((s) => [...new Set(typeNames(s))] as NotificationType[]),
  { zh: '通知类型', en: 'Notification type' },
);

/** GET /api/v3/notification */
export const notificationListQuery = z.object({
  ...pageQuery,
  filter: z.object({ type: notificationTypeFilter.optional() }).default({}),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

/** POST /api/v3/notification.delete: one id or several ("3,4"); only the viewer's own notices are deleted. */
export const notificationDeleteBody = z.object({ id: labeled(idList(), { zh: '通知编号', en: 'Notification ID' }) });
export type NotificationDeleteBody = z.infer<typeof notificationDeleteBody>;

/** One notice of the message centre, as its template rendered it when the event happened. */
export interface NotificationItem {
  id: number;
  type: NotificationType;
  category: NotificationCategoryValue;
  /** Plain text: the page escapes it. */
  title: string;
  content: string;
  /** The thread and post the notice is about (the reply or comment, the liked post, the moderated thread). */
  threadId: number | null;
  postId: number | null;
  /** For a comment: the reply it belongs to. */
  replyPostId: number | null;
  /** Who acted (the latest of them, for likes or follows merged into one notice); null for the site itself. */
  fromUser: { id: number; nickname: string; avatarUrl: string } | null;
  /** As it was before this listing: null means the viewer had not seen it (listing marks it read). */
  readAt: string | null;
  createdAt: string;
}
