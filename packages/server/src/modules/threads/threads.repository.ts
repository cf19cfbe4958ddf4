import { sql, type Insertable, type Kysely, type QueryCreator, type Updateable } from 'kysely';
import type { DB, Thread, ThreadsTable } from '../../db/schema.js';

/**
 * A thread with what lists show beside it: its author and its category's name; in a search, the reply through which
 * it was found (search.service.ts).
 */
export type ThreadRow = Thread & {
  authorNickname: string;
  authorAvatar: string;
  categoryName: string;
  matchedPostId?: number | null;
};

export function threadsWithAuthor(db: QueryCreator<DB>) {
  return db
    .selectFrom('threads')
    .innerJoin('users', 'users.id', 'threads.userId')
    .innerJoin('categories', 'categories.id', 'threads.categoryId')
    .selectAll('threads')
    .select(['users.nickname as authorNickname', 'users.avatar as authorAvatar', 'categories.name as categoryName']);
}

export function findThreadRow(db: Kysely<DB>, id: number): Promise<ThreadRow | undefined> {
  return threadsWithAuthor(db).where('threads.id', '=', id).executeTakeFirst();
}

export function findThread(db: Kysely<DB>, id: number): Promise<Thread | undefined> {
  return db.selectFrom('threads').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertThread(db: Kysely<DB>, values: Insertable<ThreadsTable>): Promise<number> {
  const row = await db.insertInto('threads').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Changes a thread when `expect` still holds; answers whether it did (guards counters against races). */
export async function updateThreadIf(
  db: Kysely<DB>,
  id: number,
  changes: Updateable<ThreadsTable>,
  expect: { deleted?: boolean; isDraft?: number; categoryId?: number } = {},
): Promise<boolean> {
  let q = db.updateTable('threads').set(changes).where('id', '=', id);
  if (expect.deleted === true) q = q.where('deletedAt', 'is not', null);
  if (expect.deleted === false) q = q.where('deletedAt', 'is', null);
  if (expect.isDraft !== undefined) q = q.where('isDraft', '=', expect.isDraft);
  if (expect.categoryId !== undefined) q = q.where('categoryId', '=', expect.categoryId);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The UTC day, YYYY-MM-DD, `daysAgo` days before now. */
export const utcDay = (daysAgo = 0): string => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

type CounterColumn = 'postCount' | 'likeCount' | 'favoriteCount' | 'viewCount' | 'shareCount';

/** `set counter = counter + delta` in SQL: right under concurrent writes. */
export async function bumpThreadCounter(
  db: Kysely<DB>,
  id: number,
  column: CounterColumn,
  delta: number,
  also: Updateable<ThreadsTable> = {},
): Promise<void> {
  await db
    .updateTable('threads')
    .set((eb) => ({ ...also, [column]: eb(column, '+', delta) }))
    .where('id', '=', id)
    .execute();
}

export async function bumpUserCounter(
  db: Kysely<DB>,
  userId: number,
  column: 'threadCount' | 'postCount' | 'likedCount',
  delta: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ [column]: eb(column, '+', delta) }))
    .where('id', '=', userId)
    .execute();
}

/**
 * What the user liked and favourited among a page of threads (their first posts, and the threads): one query for
 * the page instead of one per table.
 */
export async function likedAndFavorited(
  db: Kysely<DB>,
  userId: number,
  postIds: number[],
  threadIds: number[],
): Promise<{ liked: Set<number>; favorites: Set<number> }> {
  const liked = new Set<number>();
  const favorites = new Set<number>();
  if (postIds.length === 0 && threadIds.length === 0) return { liked, favorites };
  const rows = await db
    .selectFrom('postLikes')
    .select([sql<number>`1`.as('kind'), 'postId as id'])
    .where('userId', '=', userId)
    .where('postId', 'in', postIds.length > 0 ? postIds : [0])
    .unionAll(
      db
        .selectFrom('threadFavorites')
        .select([sql<number>`2`.as('kind'), 'threadId as id'])
        .where('userId', '=', userId)
        .where('threadId', 'in', threadIds.length > 0 ? threadIds : [0]),
    )
    .execute();
  for (const row of rows) (Number(row.kind) === 1 ? liked : favorites).add(row.id);
  return { liked, favorites };
}

/** Of `postIds`, those the user liked. */
export async function likedPostIds(db: Kysely<DB>, userId: number, postIds: number[]): Promise<Set<number>> {
  if (postIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('postLikes')
    .select('postId')
    .where('userId', '=', userId)
    .where('postId', 'in', postIds)
    .execute();
  return new Set(rows.map((r) => r.postId));
}

/** Adds a favourite; answers whether it was new. */
export async function addFavorite(db: Kysely<DB>, threadId: number, userId: number, at: string): Promise<boolean> {
  const res = await db
    .insertInto('threadFavorites')
    .values({ threadId, userId, createdAt: at })
    .onConflict((oc) => oc.columns(['threadId', 'userId']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes a favourite; answers whether there was one. */
export async function removeFavorite(db: Kysely<DB>, threadId: number, userId: number): Promise<boolean> {
  const res = await db
    .deleteFrom('threadFavorites')
    .where('threadId', '=', threadId)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Counts one view: the total and today's row (for "hot"). */
export async function addView(db: Kysely<DB>, threadId: number): Promise<void> {
  await bumpThreadCounter(db, threadId, 'viewCount', 1);
  await db
    .insertInto('threadViewsDaily')
    .values({ threadId, day: utcDay(), views: 1 })
    .onConflict((oc) =>
      oc.columns(['threadId', 'day']).doUpdateSet((eb) => ({ views: eb('threadViewsDaily.views', '+', 1) })),
    )
    .execute();
}
