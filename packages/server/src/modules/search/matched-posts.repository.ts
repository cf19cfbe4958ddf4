import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB, Post } from '../../db/schema.js';

/*
 * The posts a search matched, as the results show them: with their authors, and where each stands on its thread's
 * page for the viewer. The visibility below is the posts list's (posts.repository.ts, visiblePosts()): keep them one.
 */

/** A post with its author. */
export type MatchedPostRow = Post & { authorNickname: string; authorAvatar: string };

/** Some posts with their authors, by id. */
export function findPostRows(db: Kysely<DB>, ids: number[]): Promise<MatchedPostRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.userId')
    .selectAll('posts')
    .select(['users.nickname as authorNickname', 'users.avatar as authorAvatar'])
    .where('posts.id', 'in', ids)
    .execute();
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
