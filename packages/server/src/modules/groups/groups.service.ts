import {
  Code,
  formatMoney,
  GroupId,
  isSeededGroup,
  type GroupBatchUpdateBody,
  type GroupCreateBody,
  type GroupData,
  type GroupPermissionList,
  type PaidGroupItem,
  type UpgradeGroupItem,
} from '@luntan/shared';
import { sql, type Kysely, type Updateable } from 'kysely';
import { AppError, fieldError, invalidField, notFound, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, Group, GroupsTable } from '../../db/schema.js';
import { groupsAndPermissionsOfUser } from '../../access/permissions.repository.js';
import {
  currentMemberships,
  deleteGroups,
  findDefaultGroup,
  findGroup,
  findGroupsNamed,
  insertGroup,
  listGroups,
  listPaidGroups,
  updateGroup,
} from './groups.repository.js';
import { msg } from '../../i18n/index.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import { listCategories } from '../categories/index.js';

export function presentGroup(g: Group, permissions?: string[]): GroupData {
  return {
    id: g.id,
    name: g.name,
    type: g.type,
    color: g.color,
    icon: g.icon,
    default: g.isDefault === 1,
    isDisplay: g.isDisplay === 1,
    isPaid: g.isPaid === 1,
    fee: g.feeCents / 100,
    days: g.days,
    scale: g.scale,
    isSubordinate: g.isSubordinate === 1,
    isCommission: g.isCommission === 1,
    ...(permissions ? { permissions } : {}),
  };
}

export const groupNotFound = () => notFound(msg('groups.noSuchUserGroup'));
const nameTaken = (field: string, name: string) =>
  fieldError(Code.RESOURCE_EXIST, field, msg('groups.userGroupNamedExists', { name }));

const cents = (fee: number) => Math.round(fee * 100);
const flag = (b: boolean) => (b ? 1 : 0);

export async function createGroup(db: Kysely<DB>, body: GroupCreateBody): Promise<GroupData> {
  const at = now();
  const id = await db.transaction().execute(async (trx) => {
    if ((await findGroupsNamed(trx, body.name)).length > 0) throw nameTaken('name', body.name);
    return insertGroup(trx, {
      name: body.name,
      type: body.type ?? '',
      color: body.color ?? '',
      icon: body.icon ?? '',
      isDefault: 0,
      isDisplay: 0,
      isPaid: flag(body.isPaid ?? false),
      feeCents: cents(body.fee ?? 0),
      days: body.days ?? 0,
      scale: 0,
      isSubordinate: 0,
      isCommission: 0,
      createdAt: at,
      updatedAt: at,
    });
  });
  return presentGroup((await findGroup(db, id))!);
}

/** Applies every entry or none; names stay unique without regard to case. */
export async function batchUpdateGroups(db: Kysely<DB>, body: GroupBatchUpdateBody): Promise<GroupData[]> {
  const ids = body.data.map((d) => d.id);
  if (new Set(ids).size !== ids.length) {
    throw invalidField('data', msg('groups.userGroupAppearsTwice'));
  }
  const at = now();
  await db.transaction().execute(async (trx) => {
    for (const [i, d] of body.data.entries()) {
      const current = await findGroup(trx, d.id);
      if (!current) {
        throw notFoundField(`data.${i}.id`, msg('groups.noSuchUserGroup2'));
      }
      if (isSeededGroup(d.id) && d.type !== current.type) {
        throw invalidField(`data.${i}.type`, msg('groups.typeSystemPresetGroup'));
      }
      const changes: Updateable<GroupsTable> = { name: d.name, type: d.type, scale: d.scale, updatedAt: at };
      if (d.isSubordinate !== undefined) changes.isSubordinate = flag(d.isSubordinate);
      if (d.isCommission !== undefined) changes.isCommission = flag(d.isCommission);
      if (d.color !== undefined) changes.color = d.color;
      if (d.icon !== undefined) changes.icon = d.icon;
      if (d.isPaid !== undefined) changes.isPaid = flag(d.isPaid);
      if (d.fee !== undefined) changes.feeCents = cents(d.fee);
      if (d.days !== undefined) changes.days = d.days;
      await updateGroup(trx, d.id, changes);
    }
    // Checked on the result, so that two groups may swap names in one batch.
    const clash = await trx
      .selectFrom('groups')
      .select(sql<string>`lower(name)`.as('n'))
      .groupBy(sql`lower(name)`)
      .having((eb) => eb.fn.countAll(), '>', 1)
      .executeTakeFirst();
    if (clash) {
      const i = body.data.findIndex((d) => d.name.toLowerCase() === clash.n);
      throw nameTaken(`data.${Math.max(i, 0)}.name`, body.data[Math.max(i, 0)]!.name);
    }
  });
  const byId = new Map((await listGroups(db)).map((g) => [g.id, g]));
  return ids.map((id) => presentGroup(byId.get(id)!));
}

/**
 * Deletes groups, all or none. The administrator and guest groups and the default group cannot go; members left
 * in no group join the default group.
 */
export async function batchDeleteGroups(
  db: Kysely<DB>,
  ids: number[],
): Promise<{ deleted: number[]; movedUsers: number }> {
  return db.transaction().execute(async (trx) => {
    const fallback = await findDefaultGroup(trx);
    for (const id of ids) {
      if (id === GroupId.ADMINISTRATOR || id === GroupId.GUEST || id === fallback?.id) {
        throw invalidField(
          'ids',
          id === GroupId.ADMINISTRATOR
            ? msg('groups.administratorGroupUndeletable')
            : id === GroupId.GUEST
              ? msg('groups.guestGroupUndeletable')
              : msg('groups.defaultGroupUndeletable'),
        );
      }
      if (!(await findGroup(trx, id))) {
        throw notFoundField('ids', msg('groups.userGroupDoesNot', { id }));
      }
    }
    if (!fallback) throw new AppError(Code.RESOURCE_NOT_FOUND, msg('groups.thereNoDefaultGroup'));
    const movedUsers = await deleteGroups(trx, ids, fallback.id);
    return { deleted: ids, movedUsers };
  });
}

/** The group a user is shown with: the lowest-numbered of their current groups (Administrator before members). */
export async function displayGroupOfUser(db: Kysely<DB>, userId: number): Promise<{ id: number; name: string } | null> {
  const { groups } = await groupsAndPermissionsOfUser(db, userId, now());
  return groups[0] ?? null;
}

/** groups.paid.list: the paid groups on sale, and whether the user (if any) holds each now and until when. */
export async function paidGroupsFor(db: Kysely<DB>, userId: number | null): Promise<PaidGroupItem[]> {
  const at = now();
  const [groups, held] = await Promise.all([
    listPaidGroups(db),
    userId === null ? Promise.resolve(new Map<number, string | null>()) : currentMemberships(db, userId, at),
  ]);
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    fee: formatMoney(g.feeCents),
    days: g.days,
    held: held.has(g.id),
    expiresAt: held.get(g.id) ?? null,
  }));
}

/**
 * upgrade.group (the family's ListPayGroupsController): the paid groups, ranked cheapest first as the family ranks
 * them by level, and for each whether the member holds it (1), it ranks above the highest one they hold (2: an
 * upgrade, what the button offers) or below it (0). A member in no paid group may buy any.
 */
export async function upgradeGroupsFor(db: Kysely<DB>, viewer: ViewerContext): Promise<UpgradeGroupItem[]> {
  const me = requireUser(viewer);
  const [groups, held] = await Promise.all([listPaidGroups(db), currentMemberships(db, me.id, now())]);
  const heldLevel = groups.reduce((top, g, i) => (held.has(g.id) ? i + 1 : top), 0);
  return groups.map((g, i) => {
    const level = i + 1;
    return {
      groupId: g.id,
      name: g.name,
      color: g.color,
      icon: g.icon,
      fee: formatMoney(g.feeCents),
      amount: g.feeCents / 100,
      level,
      days: g.days,
      description: '',
      notice: '',
      button: held.has(g.id) ? 1 : level > heldLevel ? 2 : 0,
    };
  });
}

/** group.permission.list's site-wide keys, in the family's order. */
const GENERAL_PERMISSIONS = [
  'thread.sticky',
  'thread.favorite',
  'thread.likePosts',
  'user.view',
  'userFollow.create',
  'dialog.create',
  'other.canInviteUserScale',
  'createThreadWithCaptcha',
  'publishNeedBindPhone',
  'cash.create',
  'order.create',
  'trade.pay.order',
] as const;

/** Restrictions, not rights: administrators hold every key but are never held back by these. */
const RESTRICTIONS = new Set<string>(['createThreadWithCaptcha', 'publishNeedBindPhone']);

/** group.permission.list's per-category keys, as the family names them, with ours where they differ. */
const CATEGORY_PERMISSIONS: ReadonlyArray<readonly [family: string, ours: string]> = [
  'thread.insertImage',
  'thread.insertVideo',
  'thread.insertAudio',
  'thread.insertAttachment',
  'thread.insertGoods',
  'thread.insertPay',
  'thread.insertReward',
  'thread.insertRedPacket',
  'thread.insertPosition',
  'thread.allowAnonymous',
  'thread.viewThreads',
  'thread.viewPosts',
  'thread.freeViewPosts',
  'thread.reply',
  'thread.essence',
  'thread.edit',
  'thread.hide',
  'thread.hidePosts',
  'thread.editOwnThread',
  'thread.hideOwnThreadOrPost',
].map((family) => [family, family === 'thread.viewThreads' ? 'viewThreads' : family] as const);

/**
 * GET /api/v3/group.permission.list: the viewer's (first) group and what it may do, as the family answers it: the
 * site-wide keys under `general`, every category-scoped key per category id (held site-wide or in that category).
 */
export async function groupPermissionList(db: Kysely<DB>, viewer: ViewerContext): Promise<GroupPermissionList> {
  const me = requireUser(viewer);
  const categories = await listCategories(db);
  const general: Record<string, boolean> = {};
  for (const key of GENERAL_PERMISSIONS) {
    general[key] = RESTRICTIONS.has(key) ? !viewer.isAdmin && viewer.permissions.has(key) : can(viewer, key);
  }
  const myPermissons: GroupPermissionList['myPermissons'] = { general };
  for (const [family, ours] of CATEGORY_PERMISSIONS) {
    myPermissons[family] = Object.fromEntries(categories.map((c) => [String(c.id), can(viewer, ours, c.id)]));
  }
  return {
    myGroup: {
      nickname: me.nickname,
      avatar: me.avatar,
      groupName: viewer.groups[0]?.name ?? '',
      createdAt: me.createdAt,
    },
    myPermissons,
  };
}
