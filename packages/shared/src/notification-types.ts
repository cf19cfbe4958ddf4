/*
 * The notification types and tabs: plain constants, apart from the zod schemas of schemas/notifications.ts, so the
 * web app's first page can count unread notices without loading zod.
 */

/** The message centre's tabs; the unread counters count each (GET /api/v3/unreadnotification). */
export const NotificationCategory = { ACCOUNT: 'account', FINANCIAL: 'financial', THREAD: 'thread' } as const;
export type NotificationCategoryValue = (typeof NotificationCategory)[keyof typeof NotificationCategory];

/**
 * The family's notification types (what `filter[type]` names) and the tab each belongs to. `followed` is ours (the
 * family had no follow notice); the financial ones arrive with the wallet.
 */
export const NOTIFICATION_TYPES = {
  /** What an administrator did to one's content or account, and registration reviews. */
  system: NotificationCategory.ACCOUNT,
  followed: NotificationCategory.ACCOUNT,
  /** An @mention. */
  related: NotificationCategory.THREAD,
  replied: NotificationCategory.THREAD,
  liked: NotificationCategory.THREAD,
  questioned: NotificationCategory.THREAD,
  rewarded: NotificationCategory.FINANCIAL,
  threadrewarded: NotificationCategory.FINANCIAL,
  threadrewardedexpired: NotificationCategory.FINANCIAL,
  receiveredpacket: NotificationCategory.FINANCIAL,
  withdrawal: NotificationCategory.FINANCIAL,
} as const satisfies Record<string, NotificationCategoryValue>;
export type NotificationType = keyof typeof NOTIFICATION_TYPES;
export const NOTIFICATION_TYPE_NAMES = Object.keys(NOTIFICATION_TYPES) as NotificationType[];
