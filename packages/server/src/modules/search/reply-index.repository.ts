import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { plainText } from '../content/index.js';
import { cjkGrams, gramsColumn, matchingIds, REPLY_INDEX } from './search-terms.js';

/**
 * The reply search index (`post_search`: the plain text of each reply and comment), as Discourse and NodeBB search
 * every post and not only the first. It holds the posts everyone may see: approved and not deleted. Every change of a
 * post calls syncReplyIndex() in its transaction, which writes or removes the entry to match the post; the search
 * checks the post's state again when it reads (a stale entry finds nothing) and adds what depends on the viewer.
 * How terms are matched: search-terms.ts.
 */

export interface ReplyIndexEntry {
  postId: number;
  /** The plain text of the post (plainText() of its HTML). */
  content: string;
}

/** Adds entries for posts that have none (in one statement per thousand: the demo seeder writes many). */
export async function insertReplyIndex(
  db: Kysely<DB>,
  dialect: DialectName,
  entries: ReplyIndexEntry[],
): Promise<void> {
  for (let i = 0; i < entries.length; i += 1000) {
    const chunk = entries.slice(i, i + 1000);
    if (dialect === 'postgres') {
      const ids = chunk.map((e) => e.postId);
      const texts = chunk.map((e) => e.content.toLowerCase());
      await sql`insert into post_search (post_id, content)
        select * from unnest(${sql.val(ids)}::integer[], ${sql.val(texts)}::text[])`.execute(db);
      const grams: string[] = [];
      const gramIds: number[] = [];
      for (const e of chunk) {
        for (const g of cjkGrams(e.content)) {
          grams.push(g);
          gramIds.push(e.postId);
        }
      }
      if (grams.length > 0) {
        await sql`insert into post_search_grams (gram, post_id)
          select * from unnest(${sql.val(grams)}::text[], ${sql.val(gramIds)}::integer[])`.execute(db);
      }
      continue;
    }
    const rows = chunk.map((e) => sql`(${e.postId}, ${e.content}, ${gramsColumn(cjkGrams(e.content))})`);
    await sql`insert into post_search (rowid, content, grams) values ${sql.join(rows)}`.execute(db);
  }
}

export async function removeReplyIndex(db: Kysely<DB>, dialect: DialectName, postId: number): Promise<void> {
  if (dialect === 'postgres') {
    await sql`delete from post_search where post_id = ${postId}`.execute(db);
    await sql`delete from post_search_grams where post_id = ${postId}`.execute(db);
    return;
  }
  await sql`delete from post_search where rowid = ${postId}`.execute(db);
}

/**
 * Brings a post's entry in line with the post as it now is: its text while it is a reply or comment that everyone may
 * see (approved, not deleted), none otherwise (held, ignored, hidden, or a first post, which the thread index holds).
 */
export async function syncReplyIndex(db: Kysely<DB>, dialect: DialectName, postId: number): Promise<void> {
  await removeReplyIndex(db, dialect, postId);
  const post = await db
    .selectFrom('posts')
    .select(['id', 'isFirst', 'isApproved', 'deletedAt', 'contentHtml'])
    .where('id', '=', postId)
    .executeTakeFirst();
  if (!post || post.isFirst === 1 || post.isApproved !== 1 || post.deletedAt !== null) return;
  await insertReplyIndex(db, dialect, [{ postId, content: plainText(post.contentHtml) }]);
}

/** Whether a post has an index entry (for tests and repairs). */
export async function isReplyIndexed(db: Kysely<DB>, dialect: DialectName, postId: number): Promise<boolean> {
  const column = dialect === 'postgres' ? sql.ref('post_id') : sql.raw('rowid');
  const { rows } = await sql<{ n: number }>`select count(*) as n from post_search where ${column} = ${postId}`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

export interface ReplyHitScope {
  viewerId: number | null;
  /** The categories whose replies the viewer may read (thread.viewPosts); null: all. */
  categoryIds: number[] | null;
}

/**
 * `select thread_id, post_id`: of the newest `max` index entries holding every term, the replies and comments the
 * viewer sees on the thread page, by thread (its earliest such post): approved and not deleted, by an author the
 * viewer did not block, in a category whose posts they may read, and for a comment, under a reply that is shown too
 * (approved, not deleted, not by a blocked author). The thread's own state (deleted, draft, held, blocked author) is
 * the thread list's filter, applied by the caller.
 */
export function replyHitsQuery(
  dialect: DialectName,
  terms: string[],
  scope: ReplyHitScope,
  max: number,
): RawBuilder<ReplyHit> {
  const conditions = [
    sql`p.id in (${matchingIds(dialect, REPLY_INDEX, terms, max)})`,
    sql`p.deleted_at is null and p.is_approved = 1 and p.is_first = 0`,
    sql`(p.is_comment = 0 or (r.deleted_at is null and r.is_approved = 1))`,
  ];
  // The thread is read only for its category, when some categories are closed to the viewer.
  const threads = scope.categoryIds ? sql`join threads t on t.id = p.thread_id` : sql``;
  if (scope.categoryIds) {
    const ids = scope.categoryIds.length > 0 ? scope.categoryIds : [0];
    conditions.push(sql`t.category_id in (${sql.join(ids)})`);
  }
  if (scope.viewerId !== null) {
    const blocked = sql`(select deny_user_id from user_denies where user_id = ${scope.viewerId})`;
    conditions.push(sql`p.user_id not in ${blocked} and (p.is_comment = 0 or r.user_id not in ${blocked})`);
  }
  return sql<ReplyHit>`select p.thread_id, min(p.id) as post_id from posts p ${threads}
    left join posts r on r.id = p.reply_post_id where ${sql.join(conditions, sql` and `)} group by p.thread_id`;
}

export interface ReplyHit {
  threadId: number;
  postId: number;
}
