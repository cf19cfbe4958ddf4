import type { AdminUsersQuery } from '@luntan/shared';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { likePattern } from '../../db/like-pattern.js';

function applyFilter<O>(
  q: SelectQueryBuilder<DB, 'users', O>,
  f: AdminUsersQuery['filter'],
): SelectQueryBuilder<DB, 'users', O> {
  if (f.username) q = q.where(sql<boolean>`lower(users.username) like ${likePattern(f.username)} escape '\\'`);
  if (f.nickname) q = q.where(sql<boolean>`lower(users.nickname) like ${likePattern(f.nickname)} escape '\\'`);
  if (f.status !== undefined) q = q.where('users.status', '=', f.status);
  if (f.id !== undefined) q = q.where('users.id', '=', f.id);
  if (f.groupId !== undefined) {
    const groupId = f.groupId;
    q = q.where('users.id', 'in', (eb) =>
      eb.selectFrom('groupUser').select('groupUser.userId').where('groupUser.groupId', '=', groupId),
    );
  }
  return q;
}

export async function countUsersWhere(db: Kysely<DB>, f: AdminUsersQuery['filter']): Promise<number> {
  const row = await applyFilter(db.selectFrom('users'), f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest first. */
export function listUsersWhere(db: Kysely<DB>, f: AdminUsersQuery['filter'], offset: number, limit: number) {
  return applyFilter(db.selectFrom('users'), f)
    .selectAll()
    .orderBy('users.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** The groups of some users (expired memberships included: the back office shows what was given). */
export async function groupsOfUsers(
  db: Kysely<DB>,
  userIds: number[],
): Promise<Map<number, { id: number; name: string }[]>> {
  const out = new Map<number, { id: number; name: string }[]>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('groupUser')
    .innerJoin('groups', 'groups.id', 'groupUser.groupId')
    .select(['groupUser.userId', 'groups.id', 'groups.name'])
    .where('groupUser.userId', 'in', userIds)
    .orderBy('groups.id')
    .execute();
  for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), { id: r.id, name: r.name }]);
  return out;
}

/** Replaces a user's groups. */
export async function replaceUserGroups(db: Kysely<DB>, userId: number, groupIds: number[]): Promise<void> {
  await db.deleteFrom('groupUser').where('userId', '=', userId).execute();
  await db
    .insertInto('groupUser')
    .values(groupIds.map((groupId) => ({ userId, groupId, expiresAt: null })))
    .execute();
}
