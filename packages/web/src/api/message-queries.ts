import {
  NOTIFICATION_TYPE_NAMES,
  NOTIFICATION_TYPES,
  NotificationCategory,
  type DialogItem,
  type DialogMessageItem,
  type NotificationCategoryValue,
  type NotificationItem,
  type NotificationType,
  type Page,
} from '@luntan/shared';
import type { ApiClient } from './client';
import { isSuccess, type ApiResult } from './dispatcher';

/**
 * Query keys and fetchers of the message centre: my dialogs, a dialog's messages, notices. Keys start with the
 * family ('dialogs', 'notifications') and the viewer's id, so the live stream can refresh a whole family at once.
 */

export const DIALOGS_PER_PAGE = 20;
export const MESSAGES_PER_PAGE = 20;
export const NOTIFICATIONS_PER_PAGE = 20;

export const dialogsKey = ['dialogs'] as const;
export const notificationsKey = ['notifications'] as const;

export const dialogListQuery = (api: ApiClient, page: number, viewerId: number) => ({
  queryKey: [...dialogsKey, viewerId, 'list', page] as const,
  queryFn: (): Promise<ApiResult<Page<DialogItem>>> =>
    api.get<Page<DialogItem>>('/api/v3/dialog', { page, perPage: DIALOGS_PER_PAGE }),
});

/** My dialog with a member ({dialogId: null} before the first message). */
export const dialogRecordQuery = (api: ApiClient, userId: number, viewerId: number) => ({
  queryKey: [...dialogsKey, viewerId, 'record', userId] as const,
  queryFn: (): Promise<ApiResult<{ dialogId: number | null }>> =>
    api.get<{ dialogId: number | null }>('/api/v3/dialog.record', { userId }),
});

/**
 * A dialog's history as an infinite query: page 1 holds the newest messages, each further page older ones (the
 * chat scrolls back through them). A page fetched after new messages arrived overlaps the one before it; the chat
 * drops the repeats by id.
 */
export const dialogMessagesQuery = (api: ApiClient, dialogId: number, viewerId: number) => ({
  queryKey: [...dialogsKey, viewerId, 'messages', dialogId] as const,
  queryFn: ({ pageParam }: { pageParam: number }): Promise<ApiResult<Page<DialogMessageItem>>> =>
    api.get<Page<DialogMessageItem>>(
      '/api/v3/dialog/message',
      { dialogId, page: pageParam, perPage: MESSAGES_PER_PAGE },
      // A dialog that is gone is said in the chat, not a trip to /404.
      { handleError: false },
    ),
  initialPageParam: 1,
  getNextPageParam: (last: ApiResult<Page<DialogMessageItem>>): number | undefined =>
    isSuccess(last) && last.Data.currentPage < last.Data.totalPage ? last.Data.currentPage + 1 : undefined,
});

/** Every message loaded so far, oldest first, each once. */
export function chronological(pages: Array<ApiResult<Page<DialogMessageItem>>> | undefined): DialogMessageItem[] {
  const byId = new Map<number, DialogMessageItem>();
  for (const page of pages ?? []) {
    if (!isSuccess(page)) continue;
    for (const message of page.Data.pageData) if (!byId.has(message.id)) byId.set(message.id, message);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The message centre's notice categories (the fourth, `index`, is the private messages). */
export type NoticeCategory = NotificationCategoryValue;
export type NoticeItem = NotificationItem;

/**
 * The notification types each category lists (GET /api/v3/notification?filter[type]=...): those the server files
 * under it, so a tab lists (and, listing them, reads) exactly what its badge counts.
 */
const typesOf = (category: NoticeCategory): readonly NotificationType[] =>
  NOTIFICATION_TYPE_NAMES.filter((type) => NOTIFICATION_TYPES[type] === category);

export const NOTICE_TYPES: Record<NoticeCategory, readonly NotificationType[]> = {
  account: typesOf(NotificationCategory.ACCOUNT),
  financial: typesOf(NotificationCategory.FINANCIAL),
  thread: typesOf(NotificationCategory.THREAD),
};

export const noticesQuery = (api: ApiClient, category: NoticeCategory, page: number, viewerId: number) => ({
  queryKey: [...notificationsKey, viewerId, category, page] as const,
  queryFn: (): Promise<ApiResult<Page<NoticeItem>>> =>
    api.get<Page<NoticeItem>>(
      '/api/v3/notification',
      { page, perPage: NOTIFICATIONS_PER_PAGE, filter: { type: NOTICE_TYPES[category].join(',') } },
      // A failure is said in the list, not a trip to /404.
      { handleError: false },
    ),
});
