import { z } from 'zod';
import { queryId } from './categories.js';
import { labeled } from './field-labels.js';
import { pageQuery, queryFlag, withoutNul } from './threads.js';
import { TOPIC_NAME_MAX } from '../topics.js';

/**
 * GET /api/v3/topics.list (the family's TopicListController): topics whose name holds filter[content] (the editor's
 * suggestion, the topics page's search), filter[hot]=1 (the topics with most visible threads, then most views; only
 * topics with a visible thread), filter[topicId] (one topic, its counts read afresh). Newest first otherwise.
 */
export const topicsListQuery = z.object({
  ...pageQuery,
  filter: z
    .object({
      content: labeled(z.string().transform(withoutNul).pipe(z.string().trim().max(TOPIC_NAME_MAX)), {
        zh: '话题',
        en: 'Topic',
      }).optional(),
      hot: queryFlag.optional(),
      topicId: queryId.optional(),
      recommended: queryFlag.optional(),
    })
    .prefault({}),
});
export type TopicsListQuery = z.infer<typeof topicsListQuery>;

/** One topic of topics.list. */
export interface TopicItem {
  topicId: number;
  /** Who first named it. */
  userId: number;
  nickname: string;
  /** The name, without the `#`. */
  content: string;
  /** The visible threads (approved, published, not deleted) that name it. */
  threadCount: number;
  /** The views of those threads. */
  viewCount: number;
  recommended: boolean;
  recommendedAt: string;
}

export interface TopicsPage {
  pageData: TopicItem[];
  currentPage: number;
  perPage: number;
  totalCount: number;
  totalPage: number;
  /** With filter[content]: whether no topic has exactly that name (case-insensitively) yet. */
  isNewTopic?: boolean;
}
