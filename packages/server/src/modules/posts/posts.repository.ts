import { sql, type Insertable, type Kysely, type RawBuilder, type SqlBool, type Updateable } from 'kysely';
import type { DB, Post, PostsTable } from '../../db/schema.js';

/** A post with its author. */
export type PostRow = Post & { authorNickname: string; authorAvatar: string };

function postsWithAuthor(db: Kysely<DB>) {
  return db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.userId')
    .selectAll('posts')
    .select(['users.nickname as authorNickname', 'users.avatar as authorAvatar']);
}

export function findPost(db: Kysely<DB>, id: number): Promise<Post | undefined> {
  return db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findPostRow(db: Kysely<DB>, id: number): Promise<PostRow | undefined> {
  return postsWithAuthor(db).where('posts.id', '=', id).executeTakeFirst();
}

export async function insertPost(db: Kysely<DB>, values: Insertable<PostsTable>): Promise<number> {
  const row = await db.insertInto('posts').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Changes a post; with `expectDeleted` only when its deleted state is still as expected (answers whether it did). */
export async function updatePostIf(
  db: Kysely<DB>,
  id: number,
  changes: Updateable<PostsTable>,
  expectDeleted?: boolean,
): Promise<boolean> {
  let q = db.updateTable('posts').set(changes).where('id', '=', id);
  if (expectDeleted === true) q = q.where('deletedAt', 'is not', null);
  if (expectDeleted === false) q = q.where('deletedAt', 'is', null);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** `set counter = counter + delta` in SQL. */
export async function bumpPostCounter(
  db: Kysely<DB>,
  id: number,
  column: 'likeCount' | 'replyCount',
  delta: number,
): Promise<void> {
  await db
    .updateTable('posts')
    .set((eb) => ({ [column]: eb(column, '+', delta) }))
    .where('id', '=', id)
    .execute();
}

/**
 * The visible posts of one level: replies of a thread (replyPostId null) or comments of a reply. Authors the viewer
 * blocked are left out, as in the thread lists.
 */
function visiblePosts(db: Kysely<DB>, viewerId: number | null) {
  let q = postsWithAuthor(db).where('posts.deletedAt', 'is', null).where('posts.isFirst', '=', 0);
  q =
    viewerId === null
      ? q.where('posts.isApproved', '=', 1)
      : q
          .where((eb) => eb.or([eb('posts.isApproved', '=', 1), eb('posts.userId', '=', viewerId)]))
          .where('posts.userId', 'not in', (eb) =>
            eb.selectFrom('userDenies').select('userDenies.denyUserId').where('userDenies.userId', '=', viewerId),
          );
  return q;
}

export async function countReplies(db: Kysely<DB>, threadId: number, viewerId: number | null): Promise<number> {
  let q = db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('threadId', '=', threadId)
    .where('isFirst', '=', 0)
    .where('isComment', '=', 0)
    .where('deletedAt', 'is', null);
  q =
    viewerId === null
      ? q.where('isApproved', '=', 1)
      : q
          .where((eb) => eb.or([eb('isApproved', '=', 1), eb('userId', '=', viewerId)]))
          .where('userId', 'not in', (eb) =>
            eb.selectFrom('userDenies').select('userDenies.denyUserId').where('userDenies.userId', '=', viewerId),
          );
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export function listReplies(
  db: Kysely<DB>,
  threadId: number,
  viewerId: number | null,
  newestFirst: boolean,
  offset: number,
  limit: number,
): Promise<PostRow[]> {
  const dir = newestFirst ? 'desc' : 'asc';
  return visiblePosts(db, viewerId)
    .where('posts.threadId', '=', threadId)
    .where('posts.isComment', '=', 0)
    .orderBy('posts.createdAt', dir)
    .orderBy('posts.id', dir)
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countComments(db: Kysely<DB>, replyId: number, viewerId: number | null): Promise<number> {
  const row = await visiblePosts(db, viewerId)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('posts.replyPostId', '=', replyId)
    .where('posts.isComment', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listComments(
  db: Kysely<DB>,
  replyId: number,
  viewerId: number | null,
  offset: number,
  limit: number,
): Promise<PostRow[]> {
  return visiblePosts(db, viewerId)
    .where('posts.replyPostId', '=', replyId)
    .where('posts.isComment', '=', 1)
    .orderBy('posts.createdAt', 'asc')
    .orderBy('posts.id', 'asc')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** The first `perReply` visible comments of each reply, oldest first, in one query (a window function). */
export async function firstCommentsOf(
  db: Kysely<DB>,
  replyIds: number[],
  viewerId: number | null,
  perReply: number,
): Promise<PostRow[]> {
  if (replyIds.length === 0) return [];
  const ranked = visiblePosts(db, viewerId)
    .select(
      sql<number>`row_number() over (partition by posts.reply_post_id order by posts.created_at, posts.id)`.as('rank'),
    )
    .where('posts.replyPostId', 'in', replyIds)
    .where('posts.isComment', '=', 1);
  const rows = await db
    .selectFrom(ranked.as('c'))
    .selectAll('c')
    .where('c.rank', '<=', perReply)
    .orderBy('c.createdAt', 'asc')
    .orderBy('c.id', 'asc')
    .execute();
  return rows.map(({ rank: _rank, ...row }) => row as PostRow);
}

/** Adds a like; answers whether it was new. */
export async function addLike(db: Kysely<DB>, postId: number, userId: number, at: string): Promise<boolean> {
  const res = await db
    .insertInto('postLikes')
    .values({ postId, userId, createdAt: at })
    .onConflict((oc) => oc.columns(['postId', 'userId']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes a like; answers whether there was one. */
export async function removeLike(db: Kysely<DB>, postId: number, userId: number): Promise<boolean> {
  const res = await db
    .deleteFrom('postLikes')
    .where('postId', '=', postId)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function countLikes(db: Kysely<DB>, postId: number): Promise<number> {
  const row = await db
    .selectFrom('postLikes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('postId', '=', postId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listLikers(db: Kysely<DB>, postId: number, offset: number, limit: number) {
  return db
    .selectFrom('postLikes')
    .innerJoin('users', 'users.id', 'postLikes.userId')
    .select(['users.id as userId', 'users.nickname', 'users.avatar', 'postLikes.createdAt as likedAt'])
    .where('postLikes.postId', '=', postId)
    .orderBy('postLikes.createdAt', 'desc')
    .orderBy('users.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** Replaces the users a post mentions. */
export async function replaceMentions(db: Kysely<DB>, postId: number, userIds: number[]): Promise<void> {
  await db.deleteFrom('postMentions').where('postId', '=', postId).execute();
  if (userIds.length > 0) {
    await db
      .insertInto('postMentions')
      .values(userIds.map((userId) => ({ postId, userId })))
      .execute();
  }
}

export function mentionedUsers(db: Kysely<DB>, postId: number) {
  return db
    .selectFrom('postMentions')
    .innerJoin('users', 'users.id', 'postMentions.userId')
    .select(['users.id as userId', 'users.nickname', 'users.avatar'])
    .where('postMentions.postId', '=', postId)
    .orderBy('users.id')
    .execute();
}

/** Nicknames and avatars of some users (the authors that comments answer). */
export async function userSummaries(db: Kysely<DB>, ids: number[]) {
  if (ids.length === 0) return new Map<number, { userId: number; nickname: string; avatar: string }>();
  const rows = await db
    .selectFrom('users')
    .select(['id as userId', 'nickname', 'avatar'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.userId, r]));
}

/** Some posts with their authors, by id. */
export function findPostRows(db: Kysely<DB>, ids: number[]): Promise<PostRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return postsWithAuthor(db).where('posts.id', 'in', ids).execute();
}

/** `p` is a post the viewer is shown: the conditions of visiblePosts() on the alias `p`. */
function shownAs(viewerId: number | null): RawBuilder<SqlBool> {
  if (viewerId === null) return sql<SqlBool>`p.deleted_at is null and p.is_approved = 1`;
  return sql<SqlBool>`p.deleted_at is null and (p.is_approved = 1 or p.user_id = ${viewerId})
    and p.user_id not in (select deny_user_id from user_denies where user_id = ${viewerId})`;
}

/** `p` comes no later than `x` in the order of listReplies() and listComments() (oldest first, then by id). */
const upTo = (x: 'r' | 'm') =>
  sql<SqlBool>`(p.created_at < ${sql.ref(`${x}.created_at`)} or (p.created_at = ${sql.ref(`${x}.created_at`)} and p.id <= ${sql.ref(`${x}.id`)}))`;

/**
 * Where each post stands on its thread's page for the viewer: `position`, the place (from 1) of the reply (of a
 * comment's reply) among the replies posts.list shows the viewer, oldest first; and for a comment
 * `commentPosition`, its place among its reply's shown comments. One query for the lot.
 */
export async function postPositions(
  db: Kysely<DB>,
  viewerId: number | null,
  ids: number[],
): Promise<Map<number, { position: number; commentPosition: number | null }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: number; isComment: number; position: number; commentPosition: number }>`
    select m.id, m.is_comment,
      (select count(*) from posts p where p.thread_id = r.thread_id and p.is_first = 0 and p.is_comment = 0
        and ${shownAs(viewerId)} and ${upTo('r')}) as position,
      (select count(*) from posts p where p.reply_post_id = m.reply_post_id and p.is_comment = 1
        and ${shownAs(viewerId)} and ${upTo('m')}) as comment_position
    from posts m join posts r on r.id = coalesce(m.reply_post_id, m.id)
    where m.id in (${sql.join(ids)})`.execute(db);
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { position: Number(r.position), commentPosition: r.isComment === 1 ? Number(r.commentPosition) : null },
    ]),
  );
}
