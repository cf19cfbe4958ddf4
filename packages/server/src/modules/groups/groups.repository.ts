import { GroupId } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB, Group } from '../../db/schema.js';

export function listGroups(db: Kysely<DB>): Promise<Group[]> {
  return db.selectFrom('groups').selectAll().orderBy('id').execute();
}

export function findGroup(db: Kysely<DB>, id: number): Promise<Group | undefined> {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDefaultGroup(db: Kysely<DB>): Promise<Group | undefined> {
  return db.selectFrom('groups').selectAll().where('isDefault', '=', 1).orderBy('id').executeTakeFirst();
}

/** The groups a user belongs to now (memberships that have not expired). */
export function groupsOfUser(db: Kysely<DB>, userId: number, at: string): Promise<Pick<Group, 'id' | 'name'>[]> {
  return db
    .selectFrom('groupUser')
    .innerJoin('groups', 'groups.id', 'groupUser.groupId')
    .select(['groups.id', 'groups.name'])
    .where('groupUser.userId', '=', userId)
    .where((eb) => eb.or([eb('groupUser.expiresAt', 'is', null), eb('groupUser.expiresAt', '>', at)]))
    .orderBy('groups.id')
    .execute();
}

export async function isAdministrator(db: Kysely<DB>, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('groupUser')
    .select('userId')
    .where('userId', '=', userId)
    .where('groupId', '=', GroupId.ADMINISTRATOR)
    .executeTakeFirst();
  return row !== undefined;
}

export async function addUserToGroup(db: Kysely<DB>, userId: number, groupId: number): Promise<void> {
  await db
    .insertInto('groupUser')
    .values({ userId, groupId, expiresAt: null })
    .onConflict((oc) => oc.columns(['groupId', 'userId']).doNothing())
    .execute();
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

/** A group's permission update replaces its whole list (the family's rule). */
export async function replaceGroupPermissions(
  db: Kysely<DB>,
  groupId: number,
  permissions: readonly string[],
): Promise<void> {
  await db.deleteFrom('groupPermission').where('groupId', '=', groupId).execute();
  if (permissions.length > 0) {
    await db
      .insertInto('groupPermission')
      .values(permissions.map((permission) => ({ groupId, permission })))
      .execute();
  }
}
