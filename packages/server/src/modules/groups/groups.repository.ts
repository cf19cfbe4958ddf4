import { GroupId } from '@luntan/shared';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, Group, GroupsTable } from '../../db/schema.js';

export function listGroups(db: Kysely<DB>): Promise<Group[]> {
  return db.selectFrom('groups').selectAll().orderBy('id').execute();
}

export function findGroup(db: Kysely<DB>, id: number): Promise<Group | undefined> {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDefaultGroup(db: Kysely<DB>): Promise<Group | undefined> {
  return db.selectFrom('groups').selectAll().where('isDefault', '=', 1).orderBy('id').executeTakeFirst();
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

export async function insertGroup(db: Kysely<DB>, values: Insertable<GroupsTable>): Promise<number> {
  const row = await db.insertInto('groups').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateGroup(db: Kysely<DB>, id: number, changes: Updateable<GroupsTable>): Promise<void> {
  await db.updateTable('groups').set(changes).where('id', '=', id).execute();
}

/** Groups whose name equals `name` without regard to case (names are unique that way). */
export function findGroupsNamed(db: Kysely<DB>, name: string): Promise<Pick<Group, 'id' | 'name'>[]> {
  return db
    .selectFrom('groups')
    .select(['id', 'name'])
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .execute();
}

/**
 * Deletes groups; their members who would be left in no group join `fallbackGroupId` (the default group).
 * Memberships and permissions of the deleted groups go with them (foreign keys cascade).
 */
export async function deleteGroups(db: Kysely<DB>, ids: number[], fallbackGroupId: number): Promise<number> {
  const orphans = await db
    .selectFrom('groupUser as gu')
    .select('gu.userId')
    .distinct()
    .where('gu.groupId', 'in', ids)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('groupUser as other')
            .select('other.userId')
            .whereRef('other.userId', '=', 'gu.userId')
            .where('other.groupId', 'not in', ids),
        ),
      ),
    )
    .execute();
  // The groups' rows before any membership is written: a payment settling for a paid group holds the group's row,
  // then writes memberships (orders' settle(); every membership write also raises the `viewers` cache counter, one
  // row). Taking the group's row first too, a deletion and a payment wait for each other in one order, never in a
  // circle (a deadlock on PostgreSQL).
  await db.deleteFrom('groups').where('id', 'in', ids).execute();
  for (let i = 0; i < orphans.length; i += 500) {
    await db
      .insertInto('groupUser')
      .values(orphans.slice(i, i + 500).map((o) => ({ userId: o.userId, groupId: fallbackGroupId, expiresAt: null })))
      .onConflict((oc) => oc.columns(['groupId', 'userId']).doNothing())
      .execute();
  }
  await db.deleteFrom('groupUser').where('groupId', 'in', ids).execute();
  await db.deleteFrom('groupPermission').where('groupId', 'in', ids).execute();
  return orphans.length;
}

/** The paid groups a member may buy (not the administrator or guest groups), cheapest first. */
export function listPaidGroups(db: Kysely<DB>): Promise<Group[]> {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('isPaid', '=', 1)
    .where('feeCents', '>', 0)
    .where('id', 'not in', [GroupId.ADMINISTRATOR, GroupId.GUEST])
    .orderBy('feeCents')
    .orderBy('id')
    .execute();
}

/** The user's memberships that have not expired, by group: when each ends (null: never). */
export async function currentMemberships(
  db: Kysely<DB>,
  userId: number,
  at: string,
): Promise<Map<number, string | null>> {
  const rows = await db
    .selectFrom('groupUser')
    .select(['groupId', 'expiresAt'])
    .where('userId', '=', userId)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', at)]))
    .execute();
  return new Map(rows.map((r) => [r.groupId, r.expiresAt]));
}
