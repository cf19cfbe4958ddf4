import type { SearchMatchedPost } from '@luntan/shared';
import { sql, type Kysely, type QueryCreator, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { plainText } from '../content/index.js';
import { findPostRows, postPositions } from './matched-posts.repository.js';
import { replyHitsQuery, type ReplyHit, type ReplyHitScope } from './reply-index.repository.js';
import { matchingIds, THREAD_INDEX } from './search-terms.js';

/**
 * A search finds threads through their own entry (title and first post) and through their replies and comments.
 * Only the newest matches of each index are taken (a common word must not sort the forum): the threads of those
 * are the candidates, which the thread list then filters, ranks and counts. Both sets are common table expressions
 * of the list's query, computed once for the ranking, the count and the matched replies of the page:
 * `search_threads (id)` and `search_replies (thread_id, post_id)`.
 */

/** How many of the newest matching threads, and of the newest matching replies, a search considers. */
export const THREAD_HITS_MAX = 1000;
export const REPLY_HITS_MAX = 200;

export interface ThreadSearch {
  terms: string[];
  /** Whose replies, and in which categories, may be found. */
  replies: ReplyHitScope;
}

/** The query creator of a list: with a search, holding its candidates (materialized: each is read several times). */
export function withSearchCandidates(db: Kysely<DB>, dialect: DialectName, search?: ThreadSearch): QueryCreator<DB> {
  if (!search) return db;
  const creator = db
    .with(
      (cte) => cte('searchThreads').materialized(),
      // Kysely writes a raw expression as it is: the parentheses are ours.
      () => sql<{ id: number }>`(${matchingIds(dialect, THREAD_INDEX, search.terms, THREAD_HITS_MAX)})`,
    )
    .with(
      (cte) => cte('searchReplies').materialized(),
      () => sql<ReplyHit>`(${replyHitsQuery(dialect, search.terms, search.replies, REPLY_HITS_MAX)})`,
    );
  // The expressions below name the two tables in SQL; the typed API never does.
  return creator as unknown as QueryCreator<DB>;
}

/** The thread is a candidate (in a query made by withSearchCandidates). */
export const isSearchCandidate = sql<SqlBool>`threads.id in (select id from search_threads union all select thread_id from search_replies)`;

/** For a thread found through its replies only: the earliest matching reply or comment the viewer sees; else null. */
export const matchedPostId = sql<
  number | null
>`(select sr.post_id from search_replies sr where sr.thread_id = threads.id
  and threads.id not in (select id from search_threads))`;

/** How much text a matched post shows around the first match, and how much of it before the match. */
const EXCERPT_MAX = 120;
const EXCERPT_BEFORE = 30;

/**
 * A window of `text` (at most EXCERPT_MAX characters) around the earliest occurrence of any term (case-insensitive),
 * with … where the text was cut; the start of the text when no term occurs in it as such.
 */
export function excerptAround(text: string, terms: string[]): string {
  const chars = [...text];
  if (chars.length <= EXCERPT_MAX) return text;
  const lower = chars.map((c) => c.toLowerCase());
  let at = -1;
  for (const term of terms) {
    const want = [...term.toLowerCase()];
    for (let i = 0; i + want.length <= lower.length && (at < 0 || i < at); i += 1) {
      if (want.every((c, k) => lower[i + k] === c)) {
        at = i;
        break;
      }
    }
  }
  const start = Math.max(0, Math.min(at < 0 ? 0 : at - EXCERPT_BEFORE, chars.length - EXCERPT_MAX));
  const end = start + EXCERPT_MAX;
  return `${start > 0 ? '…' : ''}${chars.slice(start, end).join('').trim()}${end < chars.length ? '…' : ''}`;
}

/** The matched replies of a page of search results (threads found through a reply), by thread. */
export async function presentMatchedPosts(
  db: Kysely<DB>,
  viewerId: number | null,
  terms: string[],
  rows: readonly { matchedPostId?: number | null }[],
): Promise<Map<number, SearchMatchedPost>> {
  const postIds = rows.flatMap((r) => (r.matchedPostId ? [Number(r.matchedPostId)] : []));
  if (postIds.length === 0) return new Map();
  const [posts, positions] = await Promise.all([findPostRows(db, postIds), postPositions(db, viewerId, postIds)]);
  const matched = new Map<number, SearchMatchedPost>();
  for (const p of posts) {
    const at = positions.get(p.id);
    if (!at) continue;
    matched.set(p.threadId, {
      postId: p.id,
      isComment: p.isComment === 1,
      replyPostId: p.isComment === 1 ? p.replyPostId : null,
      user: { userId: p.userId, nickname: p.authorNickname, avatar: p.authorAvatar },
      createdAt: p.createdAt,
      excerpt: excerptAround(plainText(p.contentHtml), terms),
      position: at.position,
      commentPosition: at.commentPosition,
    });
  }
  return matched;
}
