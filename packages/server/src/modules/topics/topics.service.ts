import { ANONYMOUS_USER_ID, topicKey, type TopicItem, type TopicsListQuery, type TopicsPage } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { pageTotal } from '../../core/page-total.js';
import { forbidden, needLogin } from '../../core/errors.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { msg } from '../../i18n/index.js';
import { listCategories } from '../categories/index.js';
import { topicNames, type TopicRef } from '../content/index.js';
import {
  countTopics,
  ensureTopics,
  findTopicIds,
  listTopics,
  liveCounts,
  topicExists,
  type TopicRow,
} from './topics.repository.js';

/**
 * The topics a post's Markdown names (`#name#`), made when missing, by folded name: what renderContent links. Called
 * by the services that write posts just before they render, outside their transaction: a topic exists from the
 * moment a post names it, even if that write then fails (it lists no thread then, and the hot list leaves it out).
 * The thread_topic rows follow the posts as written (topics.subscriber.ts).
 *
 * `creator` is who a topic made here is shown as made by (topics.list answers it to everyone): the writer, or the
 * anonymous user (id 0) for the first post of an anonymous thread, whose author no one else may learn.
 */
export async function topicsNamedIn(db: Kysely<DB>, text: string, creator: number): Promise<Map<string, TopicRef>> {
  const names = topicNames(text);
  const ids = await ensureTopics(db, names, creator);
  return new Map([...ids].map(([key, id]) => [key, { id }]));
}

/** The topics a post's Markdown names that exist, none made: a text rendered again links no topic removed since. */
export async function existingTopicsNamedIn(db: Kysely<DB>, text: string): Promise<Map<string, TopicRef>> {
  const ids = await findTopicIds(db, [...new Set(topicNames(text).map(topicKey))]);
  return new Map([...ids].map(([key, id]) => [key, { id }]));
}

function present(viewer: ViewerContext, row: TopicRow, counts?: { threadCount: number; viewCount: number }): TopicItem {
  return {
    topicId: row.id,
    userId: row.userId,
    // A topic first named by an anonymous thread is the anonymous user's (topicsNamedIn).
    nickname:
      row.userId === ANONYMOUS_USER_ID ? msg('threads.anonymousUser')[viewer.locale ?? 'zh'] : (row.nickname ?? ''),
    content: row.content,
    threadCount: counts?.threadCount ?? row.threadCount,
    viewCount: counts?.viewCount ?? row.viewCount,
    recommended: row.recommended === 1,
    recommendedAt: row.recommendedAt ?? '',
  };
}

/**
 * GET topics.list. Whoever may read threads anywhere sees the topics (names and counts); which of a topic's threads
 * they see is thread.list's to say (filter[topicId]).
 */
export async function listTopicsFor(
  ctx: AppContext,
  viewer: ViewerContext,
  query: TopicsListQuery,
): Promise<TopicsPage> {
  if (!can(viewer, 'viewThreads')) {
    const categories = await listCategories(ctx.db);
    if (!categories.some((c) => can(viewer, 'viewThreads', c.id))) throw viewer.user ? forbidden() : needLogin();
  }
  const { page, perPage, filter } = query;
  const content = filter.content ? topicKey(filter.content) : undefined;
  const f = { content, hot: filter.hot, topicId: filter.topicId, recommended: filter.recommended };
  const offset = (page - 1) * perPage;
  const rows = await listTopics(ctx.db, f, offset, perPage);
  const totalCount = await pageTotal(rows.length, offset, perPage, () => countTopics(ctx.db, f));
  // One topic (its page): the counts as they are now, views included (thread views move without an event).
  const counts =
    filter.topicId !== undefined
      ? await liveCounts(
          ctx.db,
          rows.map((r) => r.id),
        )
      : undefined;
  const answer: TopicsPage = {
    pageData: rows.map((row) => present(viewer, row, counts?.get(row.id))),
    currentPage: page,
    perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / perPage),
  };
  if (content) answer.isNewTopic = !(await topicExists(ctx.db, content));
  return answer;
}
