import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, Post, PostsTable } from '../../db/schema.js';

/*
 * The rows of posts that a thread writes and reads itself: its first post (written with the thread, edited with it)
 * and who a post mentions and who liked it (the thread detail's first post). The posts module (replies and comments)
 * builds on these; the reading of reply pages is its own (posts.repository.ts).
 */

export function findPost(db: Kysely<DB>, id: number): Promise<Post | undefined> {
  return db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
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
