import { z } from 'zod';
import { queryId } from './categories.js';
import { pageQuery } from './threads.js';

/** An invitation link lasts this long. */
export const INVITE_TTL_DAYS = 7;
/** Invitation codes: 32 letters and digits. */
export const INVITE_CODE_PATTERN = /^[A-Za-z0-9]{16,64}$/;

/** GET /api/v3/invite.link.create?groupId= (default: the member group). */
export const inviteLinkQuery = z.object({ groupId: queryId.optional() });

export interface InviteLink {
  code: string;
  /** The page a newcomer opens: /user/register?inviteCode=<code> (relative to the site). */
  link: string;
  groupId: number;
  groupName: string;
  expiresAt: string;
}

/** GET /api/v3/invite.users.list: whom I invited, newest first. */
export const inviteUsersQuery = z.object({ ...pageQuery });

export interface InvitedUser {
  userId: number;
  username: string;
  nickname: string;
  avatar: string;
  groupId: number;
  groupName: string;
  joinedAt: string;
}

/** GET /api/v3/invite.detail?code=: what the register page shows about an invitation (anyone may ask). */
export const inviteDetailQuery = z.object({ code: z.string().regex(INVITE_CODE_PATTERN) });

export interface InviteDetail {
  code: string;
  inviter: { userId: number; nickname: string; avatar: string };
  groupId: number;
  groupName: string;
  expiresAt: string;
  valid: boolean;
}
