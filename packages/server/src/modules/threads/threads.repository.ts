import { sql, type Insertable, type Kysely, type QueryCreator, type SqlBool, type Updateable } from 'kysely';
import { OrderStatus, OrderType } from '@luntan/shared';
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
  /**
   * Whether its author pinned it (user_thread_sticks), read with the row (threadsWithAuthor, findThreadDetail): a
   * list's pins cost no statement of their own (on PostgreSQL, a round trip). PostgreSQL answers a boolean, SQLite 0
   * or 1.
   */
  pinned: SqlBool;
};

/** Whether the author pinned the thread: a correlated `exists` per row, written as SQL (no subtree to build). */
const pinnedColumn = sql<SqlBool>`exists (select 1 from user_thread_sticks s where s.thread_id = threads.id)`;

/** Threads with their author, category name and pin. */
export function threadsWithAuthor(db: QueryCreator<DB>) {
  return db
    .selectFrom('threads')
    .innerJoin('users', 'users.id', 'threads.userId')
    .innerJoin('categories', 'categories.id', 'threads.categoryId')
    .selectAll('threads')
    .select(['users.nickname as authorNickname', 'users.avatar as authorAvatar', 'categories.name as categoryName'])
    .select(pinnedColumn.as('pinned'));
}

export function findThreadRow(db: Kysely<DB>, id: number): Promise<ThreadRow | undefined> {
  return threadsWithAuthor(db).where('threads.id', '=', id).executeTakeFirst();
}

/**
 * What a thread's page shows besides its list item, read with the thread (and its pin) in one statement: the first
 * post's body, whether the first post mentions anyone, what the thread sold and received in rewards, and whether the
 * viewer liked its first post, keeps it among their favourites and bought it.
 * One statement instead of five: on PostgreSQL each is a round trip, whose socket write and wake-up of the backend
 * cost the page more than the reads themselves (docs/performance.md, "thirteenth part").
 */
export interface ThreadDetailRead {
  row: ThreadRow;
  /** The first post, when the thread has one. */
  first: { id: number; content: string; contentHtml: string; editedAt: string | null } | undefined;
  /** Whether the first post mentions anyone (post_mentions): only then are the mentioned users read. */
  firstMentions: boolean;
  paidCount: number;
  rewardedCount: number;
  rewardedCents: number;
  /** The viewer's own marks (all false for a guest, read as user 0, who has none). */
  own: { liked: boolean; favorite: boolean; bought: boolean };
}

type DetailColumns = ThreadRow & {
  fpId: number | null;
  fpContent: string | null;
  fpContentHtml: string | null;
  fpEditedAt: string | null;
  fpMentions: boolean | number;
  paidCount: number | string;
  rewardedCount: number | string;
  rewardedCents: number | string | null;
  ownLiked: boolean | number;
  ownFavorite: boolean | number;
  ownBought: boolean | number;
};

export async function findThreadDetail(
  db: Kysely<DB>,
  id: number,
  viewerId: number,
): Promise<ThreadDetailRead | undefined> {
  // Written as SQL: the builder would rebuild these subqueries' tree on every call. Paid orders only: type 3 is a
  // purchase, type 2 a reward (thread-purchases.repository.ts).
  const paid = OrderStatus.PAID;
  const { rows } = await sql<DetailColumns>`
    select threads.*, users.nickname as author_nickname, users.avatar as author_avatar,
      categories.name as category_name,
      fp.id as fp_id, fp.content as fp_content, fp.content_html as fp_content_html, fp.edited_at as fp_edited_at,
      ${pinnedColumn} as pinned,
      exists (select 1 from post_mentions m where m.post_id = threads.first_post_id) as fp_mentions,
      (select count(distinct o.user_id) from orders o
        where o.thread_id = threads.id and o.type = ${OrderType.THREAD} and o.status = ${paid}) as paid_count,
      (select count(*) from orders o
        where o.thread_id = threads.id and o.type = ${OrderType.REWARD} and o.status = ${paid}) as rewarded_count,
      (select sum(o.amount_cents) from orders o
        where o.thread_id = threads.id and o.type = ${OrderType.REWARD} and o.status = ${paid}) as rewarded_cents,
      exists (select 1 from post_likes l where l.post_id = threads.first_post_id and l.user_id = ${viewerId})
        as own_liked,
      exists (select 1 from thread_favorites f where f.thread_id = threads.id and f.user_id = ${viewerId})
        as own_favorite,
      exists (select 1 from orders o where o.thread_id = threads.id and o.type = ${OrderType.THREAD}
        and o.status = ${paid} and o.user_id = ${viewerId}) as own_bought
    from threads
      inner join users on users.id = threads.user_id
      inner join categories on categories.id = threads.category_id
      left join posts fp on fp.id = threads.first_post_id
    where threads.id = ${id}
  `.execute(db);
  const found = rows[0];
  if (!found) return undefined;
  const {
    fpId,
    fpContent,
    fpContentHtml,
    fpEditedAt,
    fpMentions,
    paidCount,
    rewardedCount,
    rewardedCents,
    ownLiked,
    ownFavorite,
    ownBought,
    ...row
  } = found;
  return {
    row,
    first:
      fpId === null
        ? undefined
        : { id: fpId, content: fpContent ?? '', contentHtml: fpContentHtml ?? '', editedAt: fpEditedAt },
    // PostgreSQL answers booleans, SQLite 0 or 1; PostgreSQL's sum is a numeric (a string).
    firstMentions: Boolean(fpMentions),
    paidCount: Number(paidCount),
    rewardedCount: Number(rewardedCount),
    rewardedCents: Number(rewardedCents ?? 0),
    own: { liked: Boolean(ownLiked), favorite: Boolean(ownFavorite), bought: Boolean(ownBought) },
  };
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
