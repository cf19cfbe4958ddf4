import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The bodies (first posts' HTML) of threads, by thread id: a paid thread's free part is a fraction of its body, so
 * a list must know the body's length to cut a summary (content/paid-content.ts).
 */
export async function firstPostHtmlByThread(db: Kysely<DB>, threadIds: number[]): Promise<Map<number, string>> {
  if (threadIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('threads')
    .innerJoin('posts', 'posts.id', 'threads.firstPostId')
    .select(['threads.id as threadId', 'posts.contentHtml'])
    .where('threads.id', 'in', threadIds)
    .execute();
  return new Map(rows.map((r) => [r.threadId, r.contentHtml]));
}
