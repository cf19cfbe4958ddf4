import { z } from 'zod';
import { bodyId, queryId } from './categories.js';
import { CONTROL_CHARS, noControlChars } from './common.js';
import { labeled } from './field-labels.js';
import type { SigninAnswerItem } from './signin-fields.js';
import { pageQuery } from './threads.js';
import { problem } from '../validation-messages.js';

export const REASON_MAX = 200;
const reason = z.string().trim().max(REASON_MAX).refine(noControlChars, CONTROL_CHARS);

/** GET /api/backAdmin/users: `filter[username]`, `filter[nickname]` (parts of the name, any case), `filter[status]`, `filter[groupId]`, `filter[id]`. */
export const adminUsersQuery = z.object({
  ...pageQuery,
  filter: z
    .object({
      username: z.string().trim().max(64).optional(),
      nickname: z.string().trim().max(64).optional(),
      status: z.coerce.number().int().min(0).max(10).optional(),
      groupId: queryId.optional(),
      id: queryId.optional(),
    })
    .default({}),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

/** GET /api/backAdmin/user */
export const adminUserQuery = z.object({ userId: queryId });

/**
 * POST /api/backAdmin/users/update.user: change a user's groups (`groupIds`, or one `groupId`), ban (`status: 1`
 * with a `reason`) or unban (`status: 0`).
 */
export const adminUserUpdateBody = z
  .object({
    id: bodyId,
    groupIds: z.array(bodyId).min(1).max(10).optional(),
    groupId: bodyId.optional(),
    status: z.union([z.literal(0), z.literal(1)]).optional(),
    reason: reason.optional(),
  })
  .refine((b) => b.groupIds === undefined || b.groupId === undefined, {
    ...problem({ kind: 'sentence', zh: 'groupIds 和 groupId 只能给出一个', en: 'Give groupIds or groupId, not both' }),
    path: ['groupId'],
  });
export type AdminUserUpdateBody = z.infer<typeof adminUserUpdateBody>;

/** POST /api/backAdmin/users/examine: users under review (status 2) become normal (0), rejected (3) or ignored (4). */
export const usersExamineBody = z.object({
  data: z
    .array(
      z.object({
        id: bodyId,
        status: z.union([z.literal(0), z.literal(3), z.literal(4)]),
        rejectReason: labeled(reason, { zh: '拒绝原因', en: 'Reason for rejection' }).optional(),
      }),
    )
    .min(1)
    .max(100),
});
export type UsersExamineBody = z.infer<typeof usersExamineBody>;

/** A user as the back office shows it. */
export interface AdminUserItem {
  userId: number;
  username: string;
  nickname: string;
  avatar: string;
  /** 0 normal, 1 banned, 2 under review, 3 rejected, 4 ignored, 10 waiting for sign-in fields. */
  status: number;
  /** Why the user was banned or rejected. */
  rejectReason: string;
  groups: { id: number; name: string }[];
  threadCount: number;
  postCount: number;
  likedCount: number;
  registerIp: string;
  lastLoginIp: string;
  lastLoginAt: string | null;
  createdAt: string;
}

/** GET /api/backAdmin/user: the user, with its sign-in field answers (for reviewing registrations). */
export type AdminUserDetail = AdminUserItem & { signinFields: SigninAnswerItem[] };
