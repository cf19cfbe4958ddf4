import { sql, type Kysely } from 'kysely';
import type { DB, Post } from '../../db/schema.js';

/**
 * A post with its author; as a viewer's list reads it, with whether that viewer liked it (`viewerLiked`: a boolean on
 * PostgreSQL, 0 or 1 on SQLite; always 0 for a guest).
 */
export type PostRow = Post & { authorNickname: string; authorAvatar: string; viewerLiked?: boolean | number };

function postsWithAuthor(db: Kysely<DB>) {
  return db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.userId')
    .selectAll('posts')
    .select(['users.nickname as authorNickname', 'users.avatar as authorAvatar']);
}

export function findPostRow(db: Kysely<DB>, id: number): Promise<PostRow | undefined> {
  return postsWithAuthor(db).where('posts.id', '=', id).executeTakeFirst();
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
  // The viewer's likes read with the rows: a member's page of replies makes no statement of its own for them.
  let q = postsWithAuthor(db)
    .select((eb) =>
      viewerId === null
        ? sql<number>`0`.as('viewerLiked')
        : eb
            .exists(
              eb
                .selectFrom('postLikes')
                .select('postLikes.postId')
                .whereRef('postLikes.postId', '=', 'posts.id')
                .where('postLikes.userId', '=', viewerId),
            )
            .$castTo<boolean | number>()
            .as('viewerLiked'),
    )
    .where('posts.deletedAt', 'is', null)
    .where('posts.isFirst', '=', 0);
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

/**
 * Where a post stands among the visible posts of its level, oldest first (as posts.list and posts.reply order them):
 * 1 for the first, or null when the viewer does not see it there.
 */
export async function visiblePosition(
  db: Kysely<DB>,
  post: Pick<Post, 'id' | 'threadId' | 'replyPostId' | 'isComment' | 'createdAt'>,
  viewerId: number | null,
): Promise<number | null> {
  const level = () => {
    const q = visiblePosts(db, viewerId).clearSelect();
    return post.isComment === 1
      ? q.where('posts.replyPostId', '=', post.replyPostId).where('posts.isComment', '=', 1)
      : q.where('posts.threadId', '=', post.threadId).where('posts.isComment', '=', 0);
  };
  const [self, upTo] = await Promise.all([
    level().select('posts.id').where('posts.id', '=', post.id).executeTakeFirst(),
    level()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.or([
          eb('posts.createdAt', '<', post.createdAt),
          eb.and([eb('posts.createdAt', '=', post.createdAt), eb('posts.id', '<=', post.id)]),
        ]),
      )
      .executeTakeFirstOrThrow(),
  ]);
  return self ? Number(upTo.n) : null;
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
