import {
  GroupId,
  UserStatus,
  type AdminUserItem,
  type AdminUsersQuery,
  type AdminUserUpdateBody,
  type Page,
  type UsersExamineBody,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { invalidField, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, User, UserUpdate } from '../../db/schema.js';
import { listGroups } from '../groups/index.js';
import { countUsersWhere, groupsOfUsers, listUsersWhere, replaceUserGroups } from './admin-users.repository.js';
import { findUserById, updateUser } from '../users/index.js';
import { msg } from '../../i18n/index.js';

export const userNotFound = (field = 'id') => notFoundField(field, msg('adminUsers.noSuchUser'));

function presentUser(u: User, groups: { id: number; name: string }[]): AdminUserItem {
  return {
    userId: u.id,
    username: u.username,
    nickname: u.nickname,
    avatar: u.avatar,
    status: u.status,
    rejectReason: u.rejectReason,
    groups,
    threadCount: u.threadCount,
    postCount: u.postCount,
    likedCount: u.likedCount,
    registerIp: u.registerIp,
    lastLoginIp: u.lastLoginIp,
    lastLoginAt: u.lastLoginAt,
    createdAt: u.createdAt,
  };
}

export async function listUsersForAdmin(db: Kysely<DB>, q: AdminUsersQuery): Promise<Page<AdminUserItem>> {
  const [totalCount, rows] = await Promise.all([
    countUsersWhere(db, q.filter),
    listUsersWhere(db, q.filter, (q.page - 1) * q.perPage, q.perPage),
  ]);
  const groups = await groupsOfUsers(
    db,
    rows.map((r) => r.id),
  );
  return {
    pageData: rows.map((r) => presentUser(r, groups.get(r.id) ?? [])),
    currentPage: q.page,
    perPage: q.perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / q.perPage),
  };
}

export async function userForAdmin(db: Kysely<DB>, userId: number, field = 'userId'): Promise<AdminUserItem> {
  const user = await findUserById(db, userId);
  if (!user) throw userNotFound(field);
  const groups = await groupsOfUsers(db, [userId]);
  return presentUser(user, groups.get(userId) ?? []);
}

/** Groups, ban and unban; an administrator cannot lock themselves out, nor ban another administrator. */
export async function updateUserByAdmin(
  ctx: AppContext,
  actorId: number,
  body: AdminUserUpdateBody,
): Promise<AdminUserItem> {
  const groupIds = body.groupIds ?? (body.groupId !== undefined ? [body.groupId] : undefined);
  await ctx.db.transaction().execute(async (trx) => {
    const user = await findUserById(trx, body.id);
    if (!user) throw userNotFound();
    const current = (await groupsOfUsers(trx, [user.id])).get(user.id)?.map((g) => g.id) ?? [];
    if (groupIds) {
      const known = new Set((await listGroups(trx)).map((g) => g.id));
      for (const [i, id] of groupIds.entries()) {
        const field = body.groupIds ? `groupIds.${i}` : 'groupId';
        if (!known.has(id)) throw notFoundField(field, msg('adminUsers.noSuchUserGroup'));
        if (id === GroupId.GUEST) {
          throw invalidField(field, msg('adminUsers.guestGroupVisitorsOnly'));
        }
      }
      if (user.id === actorId && !groupIds.includes(GroupId.ADMINISTRATOR)) {
        throw invalidField('groupIds', msg('adminUsers.youCannotLeaveAdministrator'));
      }
    }
    const finalGroups = groupIds ?? current;
    const changes: UserUpdate = {};
    if (body.status !== undefined && body.status !== user.status) {
      if (user.id === actorId) throw invalidField('status', msg('adminUsers.youCannotChangeOwn'));
      if (body.status === UserStatus.BANNED && finalGroups.includes(GroupId.ADMINISTRATOR)) {
        throw invalidField('status', msg('adminUsers.administratorCannotBannedRemove'));
      }
      changes.status = body.status;
      changes.rejectReason = body.status === UserStatus.BANNED ? (body.reason ?? '') : '';
    } else if (body.reason !== undefined && user.status === UserStatus.BANNED) {
      changes.rejectReason = body.reason;
    }
    if (groupIds) await replaceUserGroups(trx, user.id, [...new Set(groupIds)]);
    if (Object.keys(changes).length > 0) await updateUser(trx, user.id, { ...changes, updatedAt: now() });
    await ctx.events.emit(trx, 'user.changed', {
      userId: user.id,
      actorId,
      before: { status: user.status, groupIds: current },
      after: { status: changes.status ?? user.status, groupIds: finalGroups },
      reason: changes.rejectReason ?? '',
    });
  });
  return userForAdmin(ctx.db, body.id, 'id');
}

/** Reviews registrations, all or none: only users under review (status 2). */
export async function examineUsers(ctx: AppContext, body: UsersExamineBody): Promise<AdminUserItem[]> {
  await ctx.db.transaction().execute(async (trx) => {
    for (const [i, item] of body.data.entries()) {
      const user = await findUserById(trx, item.id);
      if (!user) throw userNotFound(`data.${i}.id`);
      if (user.status !== UserStatus.UNDER_REVIEW) {
        throw invalidField(`data.${i}.id`, msg('adminUsers.userNotUnderReview', { username: user.username }));
      }
      await updateUser(trx, user.id, {
        status: item.status,
        rejectReason: item.status === UserStatus.NORMAL ? '' : (item.rejectReason ?? ''),
        updatedAt: now(),
      });
      await ctx.events.emit(trx, 'user.reviewed', {
        userId: user.id,
        actorId: null,
        status: item.status,
        rejectReason: item.rejectReason ?? '',
      });
    }
  });
  return Promise.all(body.data.map((item) => userForAdmin(ctx.db, item.id, 'id')));
}
