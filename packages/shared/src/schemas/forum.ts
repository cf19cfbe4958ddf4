import { z } from 'zod';
import { siteInfoSchema } from './settings.js';

export const viewerSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  avatarUrl: z.string(),
  status: z.number().int(),
  groups: z.array(z.object({ id: z.number().int(), name: z.string() })),
  isAdmin: z.boolean(),
  /** Why an administrator banned or rejected the account (for /user/status); empty while the status is normal. */
  rejectReason: z.string(),
  /**
   * Paid joining: false when the site asks this member to pay (siteMode 'pay' and their membership ran out, or a
   * member who registered while the site was paid and has not paid yet). Every /api call but paying, the wallet,
   * logout and this one then answers -3006: send them to the pay page (order.create type 1). Administrators and
   * members who joined while the site was free are always true.
   */
  paid: z.boolean(),
  /** Until when the joining fee lasts (ISO time; '9999-…' for ever), or null for members who never had to pay. */
  paidUntil: z.string().nullable(),
  /** The bound mobile number, masked (138****8000), or '' when none is bound. */
  mobile: z.string(),
});
export type Viewer = z.infer<typeof viewerSchema>;

/** GET /api/v3/forum: the site, who the viewer is, and what the viewer may do. */
export const forumSchema = z.object({
  setSite: siteInfoSchema,
  user: viewerSchema.nullable(),
  /** Every permission key the viewer holds (category-scoped ones as `category<ID>.<key>`). */
  permissions: z.array(z.string()),
  other: z.object({
    canViewThreads: z.boolean(),
    canCreateThread: z.boolean(),
    canCreateDialog: z.boolean(),
    canFollowUser: z.boolean(),
    canViewUser: z.boolean(),
    canEditUserGroup: z.boolean(),
    /** Publishing (thread.create, posts.create) needs a solved captcha (GET /api/v3/captcha/challenge). */
    createThreadWithCaptcha: z.boolean(),
    /** The viewer may make invitation links (invite.link.create). */
    canInviteUserScale: z.boolean(),
  }),
});
export type Forum = z.infer<typeof forumSchema>;

/** GET /api/v3/unreadnotification: the header's badge counters. */
export const unreadSchema = z.object({
  totalUnread: z.number().int(),
  dialogMessageUnread: z.number().int(),
  accountUnread: z.number().int(),
  financialUnread: z.number().int(),
  threadUnread: z.number().int(),
});
export type UnreadCounters = z.infer<typeof unreadSchema>;
