import type { Page, ThreadItem, TopicsPage } from '@luntan/shared';
import type { ApiClient } from './client';
import type { ApiResult } from './dispatcher';

/** Topics (`#name#`): topics.list and a topic's threads (thread.list filter[topicId]). */

/** How many topics the editor suggests, the home page's card and the topics page show. */
export const TOPIC_SUGGESTIONS = 8;
export const HOT_TOPICS_CARD = 10;
export const TOPICS_PER_PAGE = 30;
export const TOPIC_THREADS_PER_PAGE = 20;

/** Topics whose name holds `keyword` (exact name first); the answer says whether it is a new name. */
export const topicSearchQuery = (api: ApiClient, keyword: string, perPage = TOPIC_SUGGESTIONS, page = 1) => ({
  queryKey: ['topics', 'search', keyword, page, perPage] as const,
  queryFn: (): Promise<ApiResult<TopicsPage>> =>
    api.get<TopicsPage>('/api/v3/topics.list', { page, perPage, filter: { content: keyword } }),
});

/** The topics with most visible threads. */
export const hotTopicsQuery = (api: ApiClient, perPage: number, page = 1) => ({
  queryKey: ['topics', 'hot', page, perPage] as const,
  queryFn: (): Promise<ApiResult<TopicsPage>> =>
    api.get<TopicsPage>('/api/v3/topics.list', { page, perPage, filter: { hot: 1 } }),
});

/** One topic, its counts read afresh. */
export const topicQuery = (api: ApiClient, topicId: number) => ({
  queryKey: ['topics', 'one', topicId] as const,
  queryFn: (): Promise<ApiResult<TopicsPage>> =>
    api.get<TopicsPage>('/api/v3/topics.list', { page: 1, perPage: 1, filter: { topicId } }),
});

/** A topic's threads, newest first: under `threads`, so publishing (which refreshes thread lists) refreshes it. */
export const topicThreadsQuery = (api: ApiClient, topicId: number, page: number) => ({
  queryKey: ['threads', 'topic', topicId, page] as const,
  queryFn: (): Promise<ApiResult<Page<ThreadItem>>> =>
    api.get<Page<ThreadItem>>('/api/v3/thread.list', {
      page,
      perPage: TOPIC_THREADS_PER_PAGE,
      filter: { topicId, sort: 1 },
    }),
});
