import { z } from 'zod';
import { bodyId, queryId } from './categories.js';
import { bodyFlag, contentTextSchema, pageQuery, type UserSummary } from './threads.js';
import { problem } from '../validation-messages.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { queryInt } from './common.js';
import { captchaField } from './captcha.js';

/** A post's content: the family's client sends a string; `{text}` (as thread.create takes) is accepted too. */
export const postContent = z
  .union([contentTextSchema, z.object({ text: contentTextSchema })])
  .transform((v) => (typeof v === 'string' ? v : v.text))
  .refine((s) => s.trim() !== '', problem({ kind: 'empty' }));

/** GET /api/v3/posts.list: the replies of a thread, oldest first (sort=-createdAt: newest first). */
export const postsListQuery = z.object({
  threadId: queryId,
  ...pageQuery,
  sort: z.enum(['createdAt', '-createdAt']).default('createdAt'),
});
export type PostsListQuery = z.infer<typeof postsListQuery>;

/** GET /api/v3/posts.reply: the comments on one reply, oldest first. */
export const postsReplyQuery = z.object({ postId: queryId, ...pageQuery });

/** GET /api/v3/posts.detail: one reply, with its first comments. */
export const postsDetailQuery = z.object({ postId: queryId });

/**
 * GET /api/v3/posts.postion (the family's spelling): where a reply stands in posts.list pages of `pageSize` (posts.list's
 * default when absent), or a comment among its reply's comments.
 */
export const postsPositionQuery = z.object({
  filter: z.object({
    threadId: queryId,
    postId: queryId,
    pageSize: queryInt.min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  }),
});

/** The answer of posts.postion: `page` of posts.list (1 for a comment) and `location` in it, both from 1. */
export interface PostPosition {
  page: number;
  location: number;
  pageSize: number;
}

/**
 * POST /api/v3/posts.create. `id` is the thread. Without replyId it is a reply to the thread; with replyId it is a
 * comment on that reply; commentPostId names the comment it answers (a comment under the same reply).
 */
export const postCreateBody = z.object({
  id: bodyId,
  content: postContent,
  replyId: bodyId.optional(),
  commentPostId: bodyId.optional(),
  /** The family's flag; implied by replyId. */
  isComment: bodyFlag.optional(),
  /** The captcha's solution, when the poster's group holds createThreadWithCaptcha. */
  captcha: captchaField.optional(),
});
export type PostCreateBody = z.infer<typeof postCreateBody>;

/** POST /api/v3/posts.update: edit (content), like or unlike (isLiked), hide or restore (isDeleted). */
export const postUpdateBody = z
  .object({
    id: bodyId,
    content: postContent.optional(),
    isLiked: bodyFlag.optional(),
    isDeleted: bodyFlag.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.content === undefined && body.isLiked === undefined && body.isDeleted === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['id'],
        ...problem({ kind: 'sentence', zh: '没有要执行的操作', en: 'Nothing to do' }),
      });
    }
  });
export type PostUpdateBody = z.infer<typeof postUpdateBody>;

export interface PostAbility {
  canEdit: boolean;
  canDelete: boolean;
  canLike: boolean;
  /** Comment on it (a reply) or answer it (a comment). */
  canReply: boolean;
}

/** A reply or a comment (posts.list, posts.reply, posts.create, posts.update). */
export interface PostItem {
  id: number;
  threadId: number;
  user: UserSummary;
  content: { text: string; html: string };
  /** For a comment: the reply it belongs to. */
  replyPostId: number | null;
  replyUserId: number | null;
  /** For a comment answering a comment: that comment and its author. */
  commentPostId: number | null;
  commentUser: UserSummary | null;
  likeCount: number;
  /** For a reply: its visible comments. */
  replyCount: number;
  isFirst: boolean;
  isComment: boolean;
  /** False for the author's own posts waiting for review. */
  isApproved: boolean;
  isLiked: boolean;
  createdAt: string;
  updatedAt: string;
  /** When it was last edited (its history: posts.history); null when never. */
  editedAt: string | null;
  ability: PostAbility;
  /** A reply in posts.list carries its first comments (at most COMMENTS_PREVIEW); otherwise empty. */
  comments: PostItem[];
}

/** GET /api/v3/posts.history: a post's versions (a thread's first post: its title too). */
export const postsHistoryQuery = z.object({ postId: queryId });

/** POST /api/v3/posts.history.hide: an administrator hides a version from everyone else (or shows it again). */
export const postHistoryHideBody = z.object({
  postId: bodyId,
  version: z.number().int().min(1).max(1_000_000),
  hidden: z.boolean().default(true),
});

/** One version in posts.history, newest first. */
export interface PostVersionItem {
  version: number;
  /** Who wrote this version (the anonymous user for an anonymous thread's author, to those who may not see them). */
  userId: number;
  nickname: string;
  avatar: string;
  createdAt: string;
  /** The thread's title at this version (a first post only). */
  title?: string;
  /** The Markdown source of this version ('' when hidden from this viewer). */
  content: string;
  /** Hidden by an administrator: others get no title or content. */
  hidden: boolean;
}
