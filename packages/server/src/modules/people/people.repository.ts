import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** All SQL of follows and blocks. The counters (users.follow_count, fans_count) move only with a row that was really added or removed. */

export async function addFollow(db: Kysely<DB>, userId: number, toUserId: number, at: string): Promise<boolean> {
  const inserted = await db
    .insertInto('userFollows')
    .values({ userId, toUserId, createdAt: at })
    .onConflict((oc) => oc.columns(['userId', 'toUserId']).doNothing())
    .returning('userId')
    .executeTakeFirst();
  if (!inserted) return false;
  await bumpFollowCounters(db, userId, toUserId, 1);
  return true;
}

export async function removeFollow(db: Kysely<DB>, userId: number, toUserId: number): Promise<boolean> {
  const removed = await db
    .deleteFrom('userFollows')
    .where('userId', '=', userId)
    .where('toUserId', '=', toUserId)
    .returning('userId')
    .executeTakeFirst();
  if (!removed) return false;
  await bumpFollowCounters(db, userId, toUserId, -1);
  return true;
}

async function bumpFollowCounters(db: Kysely<DB>, userId: number, toUserId: number, delta: 1 | -1): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ followCount: eb('followCount', '+', delta) }))
    .where('id', '=', userId)
    .execute();
  await db
    .updateTable('users')
    .set((eb) => ({ fansCount: eb('fansCount', '+', delta) }))
    .where('id', '=', toUserId)
    .execute();
}

export async function isFollowing(db: Kysely<DB>, userId: number, toUserId: number): Promise<boolean> {
  const row = await db
    .selectFrom('userFollows')
    .select('userId')
    .where('userId', '=', userId)
    .where('toUserId', '=', toUserId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of `ids` the viewer follows, and which of them follow the viewer. */
export async function followRelations(
  db: Kysely<DB>,
  viewerId: number,
  ids: readonly number[],
): Promise<{ following: Set<number>; followers: Set<number> }> {
  if (ids.length === 0) return { following: new Set(), followers: new Set() };
  const [out, back] = await Promise.all([
    db
      .selectFrom('userFollows')
      .select('toUserId as id')
      .where('userId', '=', viewerId)
      .where('toUserId', 'in', ids)
      .execute(),
    db
      .selectFrom('userFollows')
      .select('userId as id')
      .where('toUserId', '=', viewerId)
      .where('userId', 'in', ids)
      .execute(),
  ]);
  return { following: new Set(out.map((r) => r.id)), followers: new Set(back.map((r) => r.id)) };
}

const PERSON_COLUMNS = [
  'users.id',
  'users.username',
  'users.nickname',
  'users.avatar',
  'users.signature',
  'users.threadCount',
  'users.fansCount',
] as const;

/** The users `userId` follows (type 1) or its fans (type 2), newest relation first. */
export function listFollows(db: Kysely<DB>, userId: number, type: 1 | 2, offset: number, limit: number) {
  const [mine, theirs] = type === 1 ? (['userId', 'toUserId'] as const) : (['toUserId', 'userId'] as const);
  return db
    .selectFrom('userFollows')
    .innerJoin('users', 'users.id', `userFollows.${theirs}`)
    .select([...PERSON_COLUMNS, 'userFollows.createdAt as since'])
    .where(`userFollows.${mine}`, '=', userId)
    .orderBy('userFollows.createdAt', 'desc')
    .orderBy('users.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countFollows(db: Kysely<DB>, userId: number, type: 1 | 2): Promise<number> {
  const row = await db
    .selectFrom('userFollows')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(type === 1 ? 'userId' : 'toUserId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The users `userId` blocked, newest first. */
export function listDenied(db: Kysely<DB>, userId: number, offset: number, limit: number) {
  return db
    .selectFrom('userDenies')
    .innerJoin('users', 'users.id', 'userDenies.denyUserId')
    .select([...PERSON_COLUMNS, 'userDenies.createdAt as since'])
    .where('userDenies.userId', '=', userId)
    .orderBy('userDenies.createdAt', 'desc')
    .orderBy('users.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countDenied(db: Kysely<DB>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('userDenies')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function addDeny(db: Kysely<DB>, userId: number, denyUserId: number, at: string): Promise<boolean> {
  const inserted = await db
    .insertInto('userDenies')
    .values({ userId, denyUserId, createdAt: at })
    .onConflict((oc) => oc.columns(['userId', 'denyUserId']).doNothing())
    .returning('userId')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function removeDeny(db: Kysely<DB>, userId: number, denyUserId: number): Promise<boolean> {
  const removed = await db
    .deleteFrom('userDenies')
    .where('userId', '=', userId)
    .where('denyUserId', '=', denyUserId)
    .returning('userId')
    .executeTakeFirst();
  return removed !== undefined;
}

/** Whether `userId` blocked `other`, and whether `other` blocked `userId`. */
export async function denyRelations(
  db: Kysely<DB>,
  userId: number,
  other: number,
): Promise<{ denies: boolean; deniedBy: boolean }> {
  const rows = await db
    .selectFrom('userDenies')
    .select(['userId', 'denyUserId'])
    .where((eb) =>
      eb.or([
        eb.and([eb('userId', '=', userId), eb('denyUserId', '=', other)]),
        eb.and([eb('userId', '=', other), eb('denyUserId', '=', userId)]),
      ]),
    )
    .execute();
  return {
    denies: rows.some((r) => r.userId === userId),
    deniedBy: rows.some((r) => r.userId === other),
  };
}
