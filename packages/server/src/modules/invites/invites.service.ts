import { randomBytes } from 'node:crypto';
import {
  Code,
  GroupId,
  INVITE_CODE_PATTERN,
  INVITE_TTL_DAYS,
  type InviteDetail,
  type InvitedUser,
  type InviteLink,
  type OauthError,
  type Page,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import { fieldError, forbidden, invalidField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { requirePermission, requireUser, type ViewerContext } from '../../access/viewer.js';
import { groupNotFound } from '../groups/index.js';
import { findDefaultGroup, findGroup } from '../groups/index.js';
import {
  countInvitedUsers,
  findInviteByCode,
  insertInvite,
  listInvitedUsers,
  recordInvitedUser,
} from './invites.repository.js';
import { msg } from '../../i18n/index.js';

const DAY_MS = 86_400_000;

/**
 * The groups an inviter may put newcomers in: the default member group always; any other group but the
 * administrators and guests only when the inviter is an administrator.
 */
function mayGrant(viewer: ViewerContext, groupId: number, defaultGroupId: number | undefined): boolean {
  if (groupId === defaultGroupId) return true;
  return viewer.isAdmin && groupId !== GroupId.ADMINISTRATOR && groupId !== GroupId.GUEST;
}

/** GET /api/v3/invite.link.create: a link for newcomers, valid INVITE_TTL_DAYS days. */
export async function createInviteLink(
  db: Kysely<DB>,
  viewer: ViewerContext,
  groupId: number | undefined,
): Promise<InviteLink> {
  const me = requireUser(viewer);
  requirePermission(viewer, 'other.canInviteUserScale');
  const fallback = await findDefaultGroup(db);
  const group = groupId === undefined ? fallback : await findGroup(db, groupId);
  if (!group) throw groupNotFound();
  if (!mayGrant(viewer, group.id, fallback?.id)) {
    throw forbidden(msg('invites.youNotInviteNewcomers', { name: group.name }));
  }
  const code = randomBytes(16).toString('hex');
  const createdAt = now();
  const expiresAt = new Date(Date.now() + INVITE_TTL_DAYS * DAY_MS).toISOString();
  await insertInvite(db, { code, userId: me.id, groupId: group.id, createdAt, expiresAt });
  return {
    code,
    link: `/user/register?inviteCode=${code}`,
    groupId: group.id,
    groupName: group.name,
    expiresAt,
  };
}

/** GET /api/v3/invite.users.list: whom the viewer invited, newest first. */
export async function invitedUsers(
  db: Kysely<DB>,
  viewer: ViewerContext,
  q: { page: number; perPage: number },
): Promise<Page<InvitedUser>> {
  const me = requireUser(viewer);
  const [totalCount, rows] = await Promise.all([
    countInvitedUsers(db, me.id),
    listInvitedUsers(db, me.id, (q.page - 1) * q.perPage, q.perPage),
  ]);
  return {
    pageData: rows.map((r) => ({
      userId: r.id,
      username: r.username,
      nickname: r.nickname,
      avatar: r.avatar,
      groupId: r.groupId,
      groupName: r.groupName ?? '',
      joinedAt: r.createdAt,
    })),
    currentPage: q.page,
    perPage: q.perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / q.perPage),
  };
}

const isValid = (invite: { expiresAt: string }) => invite.expiresAt > now();

/** GET /api/v3/invite.detail?code=: who invites, into which group, and whether the link still works. */
export async function inviteDetail(db: Kysely<DB>, code: string): Promise<InviteDetail | null> {
  const invite = await findInviteByCode(db, code);
  if (!invite) return null;
  return {
    code: invite.code,
    inviter: { userId: invite.userId, nickname: invite.inviterNickname, avatar: invite.inviterAvatar },
    groupId: invite.groupId,
    groupName: invite.groupName,
    expiresAt: invite.expiresAt,
    valid: isValid(invite),
  };
}

const badInvite = () => invalidField('inviteCode', msg('invites.invitationLinkNotValid'));

export interface AcceptedInvite {
  id: number;
  userId: number;
  groupId: number;
}

/**
 * registerInviteOnly and no invitation: -4001 inviteCode, whichever way the newcomer came (username.register without
 * a code, a first sign-in by SMS or with another service, which carry none). Data.reason lets a sign-in with another
 * service tell it from other refusals.
 */
export const invitationRequired = () =>
  fieldError(Code.INVALID_PARAMETER, 'inviteCode', msg('invites.siteInvitationOnlyRegister'), {
    reason: 'inviteOnly' satisfies OauthError,
  });

/**
 * Registration's invitation: the valid invite of `code` (-4001 inviteCode when unknown or expired), or, without a
 * code, null unless the site lets only invited newcomers register.
 */
export async function inviteForRegistration(
  db: Kysely<DB>,
  code: string | undefined,
  inviteOnly: boolean,
): Promise<AcceptedInvite | null> {
  if (code === undefined || code === '') {
    if (!inviteOnly) return null;
    throw invitationRequired();
  }
  const invite = INVITE_CODE_PATTERN.test(code) ? await findInviteByCode(db, code) : undefined;
  if (!invite || !isValid(invite)) throw badInvite();
  return { id: invite.id, userId: invite.userId, groupId: invite.groupId };
}

/** In the registration's transaction: the newcomer joined through `invite`. */
export async function acceptInvite(db: Kysely<DB>, invite: AcceptedInvite, userId: number): Promise<void> {
  await recordInvitedUser(db, invite, userId, now());
}
