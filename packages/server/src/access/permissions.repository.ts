import type { Kysely } from 'kysely';
import type { DB, Group } from '../db/schema.js';

/*
 * The group reads every request makes to learn what its viewer may do (access/viewer.ts). They live on the access
 * floor so that the floor needs no feature module; the groups module manages the rows.
 */

/** The default group (the groups module's findDefaultGroup reads the same row). */
function findDefaultGroup(db: Kysely<DB>): Promise<Group | undefined> {
  return db.selectFrom('groups').selectAll().where('isDefault', '=', 1).orderBy('id').executeTakeFirst();
}

/**
 * The groups a user belongs to now (memberships that have not expired), with the permission keys they hold: one
 * query (a row per group and permission) on every signed-in request instead of two. A user left in no group (their
 * paid group ran out) counts as a member of the default group.
 */
export async function groupsAndPermissionsOfUser(
  db: Kysely<DB>,
  userId: number,
  at: string,
): Promise<{ groups: Pick<Group, 'id' | 'name'>[]; permissions: string[]; expiresAt: string | null }> {
  const held = await currentGroupsAndPermissions(db, userId, at);
  if (held.groups.length > 0) return held;
  const fallback = await findDefaultGroup(db);
  if (!fallback) return held;
  return {
    groups: [{ id: fallback.id, name: fallback.name }],
    permissions: await permissionsOfGroups(db, [fallback.id]),
    expiresAt: null,
  };
}

async function currentGroupsAndPermissions(
  db: Kysely<DB>,
  userId: number,
  at: string,
): Promise<{ groups: Pick<Group, 'id' | 'name'>[]; permissions: string[]; expiresAt: string | null }> {
  const rows = await db
    .selectFrom('groupUser')
    .innerJoin('groups', 'groups.id', 'groupUser.groupId')
    .leftJoin('groupPermission', 'groupPermission.groupId', 'groups.id')
    .select(['groups.id', 'groups.name', 'groupPermission.permission', 'groupUser.expiresAt'])
    .where('groupUser.userId', '=', userId)
    .where((eb) => eb.or([eb('groupUser.expiresAt', 'is', null), eb('groupUser.expiresAt', '>', at)]))
    .orderBy('groups.id')
    .execute();
  const groups = new Map<number, Pick<Group, 'id' | 'name'>>();
  const permissions = new Set<string>();
  // The first of the held memberships to end: from then on the user holds other groups.
  let expiresAt: string | null = null;
  for (const row of rows) {
    if (!groups.has(row.id)) groups.set(row.id, { id: row.id, name: row.name });
    if (row.permission !== null) permissions.add(row.permission);
    if (row.expiresAt !== null && (expiresAt === null || row.expiresAt < expiresAt)) expiresAt = row.expiresAt;
  }
  return { groups: [...groups.values()], permissions: [...permissions], expiresAt };
}

export async function permissionsOfGroups(db: Kysely<DB>, groupIds: number[]): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .selectFrom('groupPermission')
    .select('permission')
    .distinct()
    .where('groupId', 'in', groupIds)
    .execute();
  return rows.map((r) => r.permission);
}
