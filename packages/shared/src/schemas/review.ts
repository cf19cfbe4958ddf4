import { z } from 'zod';
import { bodyId, queryId } from './categories.js';
import { idListString } from './groups.js';
import { pageQuery, type ThreadItem } from './threads.js';

/** What a held item's is_approved says: 0 waiting for review, 1 approved, 2 ignored (left out, not approved). */
export const ApprovalState = { PENDING: 0, APPROVED: 1, IGNORED: 2 } as const;

/** GET /api/backAdmin/manage.thread.list and manage.posts.list: held content, newest first. */
export const reviewListQuery = z.object({
  ...pageQuery,
  filter: z
    .object({
      /** 0 (default): waiting for review; 2: ignored. */
      isApproved: z.enum(['0', '2']).default('0').transform(Number),
      categoryId: queryId.optional(),
    })
    .default({ isApproved: 0 }),
});
export type ReviewListQuery = z.infer<typeof reviewListQuery>;

/** POST /api/backAdmin/manage.submit.review: one or many held threads or replies. */
export const reviewSubmitBody = z.object({
  type: z.enum(['thread', 'post']),
  ids: z.union([z.array(bodyId).min(1).max(100), idListString]),
  action: z.enum(['approve', 'ignore', 'delete']),
});
export type ReviewSubmitBody = z.infer<typeof reviewSubmitBody>;

export type ReviewThreadItem = ThreadItem & { content: { text: string; html: string } };

export interface ReviewPostItem {
  id: number;
  threadId: number;
  threadTitle: string;
  user: { userId: number; nickname: string; avatar: string };
  content: { text: string; html: string };
  isComment: boolean;
  replyPostId: number | null;
  isApproved: boolean;
  /** 0 waiting, 2 ignored. */
  approvalState: number;
  createdAt: string;
}
