import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A post to render again, with its thread's title when it is the thread's first post. */
export interface StoredPost {
  id: number;
  threadId: number;
  userId: number;
  isFirst: number;
  content: string;
  contentHtml: string;
  title: string | null;
}

const storedPost = (db: Kysely<DB>) =>
  db
    .selectFrom('posts')
    .leftJoin('threads', (join) => join.onRef('threads.id', '=', 'posts.threadId').on('posts.isFirst', '=', 1))
    .select([
      'posts.id',
      'posts.threadId',
      'posts.userId',
      'posts.isFirst',
      'posts.content',
      'posts.contentHtml',
      'threads.title',
    ]);

/** These posts (those that still exist), by id. */
export function postsByIds(db: Kysely<DB>, ids: readonly number[]) {
  return storedPost(db).where('posts.id', 'in', ids).orderBy('posts.id').execute() as Promise<StoredPost[]>;
}

/** The posts that mention `userId` (post_mentions, written with each render), after `afterId`, by id. */
export function postsMentioning(db: Kysely<DB>, userId: number, afterId: number, limit: number) {
  return storedPost(db)
    .where('posts.id', 'in', (eb) => eb.selectFrom('postMentions').select('postId').where('userId', '=', userId))
    .where('posts.id', '>', afterId)
    .orderBy('posts.id')
    .limit(limit)
    .execute() as Promise<StoredPost[]>;
}

const likePattern = (word: string) => `%${word.replace(/[!%_]/g, (c) => `!${c}`)}%`;

/**
 * The posts whose Markdown (or, for a first post, whose thread's title) may hold one of `words` (lower-cased
 * literal parts), after `afterId`, by id: a scan with LIKE, resumed from the last id. Case is folded by the
 * database's lower(): all of Unicode on PostgreSQL, ASCII only on SQLite (there a word with other capitals is found
 * only as written). The caller confirms each with the stop-word matcher.
 */
export function postsContaining(db: Kysely<DB>, words: readonly string[], afterId: number, limit: number) {
  return storedPost(db)
    .where((eb) =>
      eb.or(
        words.flatMap((word) => [
          sql<boolean>`lower(${sql.ref('posts.content')}) like ${likePattern(word)} escape '!'`,
          sql<boolean>`lower(${sql.ref('threads.title')}) like ${likePattern(word)} escape '!'`,
        ]),
      ),
    )
    .where('posts.id', '>', afterId)
    .orderBy('posts.id')
    .limit(limit)
    .execute() as Promise<StoredPost[]>;
}

/** Writes a post's new text and HTML if its Markdown is still `was` (an edit since rendered it already). */
export async function updatePostText(
  db: Kysely<DB>,
  id: number,
  was: string,
  changes: { content: string; contentHtml: string },
): Promise<boolean> {
  const result = await db
    .updateTable('posts')
    .set(changes)
    .where('id', '=', id)
    .where('content', '=', was)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateThreadText(
  db: Kysely<DB>,
  id: number,
  changes: { summary: string; title?: string },
): Promise<void> {
  await db.updateTable('threads').set(changes).where('id', '=', id).execute();
}
