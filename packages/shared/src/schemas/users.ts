import { z } from 'zod';
import { LOCALES } from '../locale.js';
import { newUsernameSchema, nicknameSchema, passwordSchema } from './auth.js';
import { bodyId, queryId } from './categories.js';
import { paginationQuery } from './common.js';
import { charsBetween, CONTROL_CHARS, noControlChars } from './common.js';
import { labeled } from './field-labels.js';
import { bodyFlag } from './threads.js';
import { problem } from '../validation-messages.js';
import { FollowType, type FollowStateValue } from '../list-codes.js';

/** A signature: one line of at most 140 characters. */
export const SIGNATURE_MAX = 140;

export const signatureSchema = labeled(
  z.string().trim().superRefine(charsBetween(0, SIGNATURE_MAX)).refine(noControlChars, CONTROL_CHARS),
  { zh: '签名', en: 'Signature' },
);

/** GET /api/v3/user */
export const userProfileQuery = z.object({ userId: queryId });

/** GET /api/v3/user: the profile card and page header. */
export interface UserProfile {
  id: number;
  username: string;
  nickname: string;
  avatarUrl: string;
  backgroundUrl: string;
  signature: string;
  threadCount: number;
  likedCount: number;
  followCount: number;
  fansCount: number;
  /** The viewer's relation (FollowState). */
  follow: FollowStateValue;
  /** The viewer blocked this user. */
  isDeny: boolean;
  /** This user blocked the viewer (the viewer can neither follow nor message them). */
  isDenied: boolean;
  /** Whether the viewer may see the threads this user liked (always for oneself). */
  likesVisible: boolean;
  /** The user's own likes-privacy setting (what the personal centre's switch shows). */
  likesPublic: boolean;
  joinedAt: string;
  group: { id: number; name: string } | null;
  /** The card is the viewer's own. */
  isMe: boolean;
  /** Only on one's own card (never shown to others): the address, whether its link was opened. */
  email?: string | null;
  emailVerified?: boolean;
  /** Only on one's own card: an address a verification link was sent to and not yet opened (30 minutes). */
  emailPending?: string | null;
  /**
   * Only on one's own card: whether the account has a password its owner knows. False for an account made by an
   * outside sign-in (OpenID Connect, WeChat) until a password is set; it then needs no current password.
   */
  hasPassword?: boolean;
  /**
   * Only on one's own card: the username is one the site made up (a first SMS sign-in, an outside sign-in), and its
   * member may still choose their own, once (update.user `username`).
   */
  usernameChangeable?: boolean;
}

/** POST /api/v3/follow.create */
export const followCreateBody = z.object({ toUserId: bodyId });
export interface FollowCreated {
  isMutual: boolean;
}

/** POST /api/v3/follow.delete: type 1 stops following user `id`, type 2 removes fan `id`. */
export const followDeleteBody = z.object({
  id: bodyId,
  type: z.union([z.literal(FollowType.FOLLOWING), z.literal(FollowType.FANS)]).default(FollowType.FOLLOWING),
});

/** GET /api/v3/follow.list?filter[type]=1|2&filter[userId]=N */
export const followListQuery = paginationQuery.extend({
  filter: z.object({
    type: z.coerce
      .number()
      .int()
      .refine(
        (v) => v === FollowType.FOLLOWING || v === FollowType.FANS,
        problem({ kind: 'notOneOf', values: [FollowType.FOLLOWING, FollowType.FANS] }),
      ),
    userId: queryId,
  }),
});

/** A user in a list of people (follows, fans, blocked users). */
export interface PersonItem {
  id: number;
  username: string;
  nickname: string;
  avatarUrl: string;
  signature: string;
  threadCount: number;
  fansCount: number;
  /** The viewer's own relation to this user. */
  follow: FollowStateValue;
  /** When the listed relation began (followed, or blocked). */
  since: string;
}

/** POST /api/v3/users/deny.create, deny.delete */
export const denyBody = z.object({ id: bodyId });
export const denyListQuery = paginationQuery;

/** POST /api/v3/users/update.user: only the fields given change. */
export const updateUserBody = z.object({
  /** A username of one's own: only while the current one is generated (usernameChangeable), and only once. */
  username: newUsernameSchema.optional(),
  nickname: nicknameSchema.optional(),
  signature: signatureSchema.optional(),
  /**
   * The current password: required with newPassword, except while the account still has the random password an
   * outside sign-in gave it (the server checks, -4001 on field password when missing).
   */
  password: labeled(z.string().max(200), { zh: '当前密码', en: 'Current password', zhChars: '位' }).optional(),
  newPassword: labeled(passwordSchema, { zh: '新密码', en: 'New password', zhChars: '位' }).optional(),
  likesPublic: labeled(bodyFlag, { zh: '公开点赞', en: 'Public likes' }).optional(),
  locale: labeled(z.enum(LOCALES), { zh: '语言', en: 'Language' }).optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

/** POST /api/v3/users/nickname.set: the family's one-field nickname change, under update.user's rules. */
export const setNicknameBody = z.object({ nickname: nicknameSchema });
