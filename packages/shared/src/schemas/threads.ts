import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { bodyId, queryId } from './categories.js';
import { charsBetween, CONTROL_CHARS, noControlChars } from './common.js';
import { labeled } from './field-labels.js';
import { problem } from '../validation-messages.js';

export const THREAD_TITLE_MAX = 100;
export const POST_CONTENT_MAX = 50_000;
export const SEARCH_KEYWORD_MAX = 100;
/** Deeper pages than this are refused (-4001): nobody reads them and the offsets only cost. */
export const PAGE_MAX = 100_000;
/** Length of a thread's plain-text summary in lists. */
export const THREAD_SUMMARY_MAX = 200;

/** Pages of a list in a query string. */
export const pageQuery = {
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  perPage: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};

/** A yes/no in a JSON body: true/false or 1/0. */
export const bodyFlag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);
/** A yes/no in a query string: 1/0 or true/false. */
export const queryFlag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** Ids from a query string: `a[]=1&a[]=2`, `a[0]=1&a[1]=2`, `a=1` or `a=1,2`. */
export const queryIdList = z.preprocess((v) => {
  if (v === undefined || v === '') return undefined;
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return v.split(',').filter((s) => s !== '');
  if (typeof v === 'number') return [v];
  return v;
}, z.array(queryId).max(50).optional());

/** A title: one line, 1 to 100 characters (an empty title is allowed only in a draft, checked on the body). */
export const titleSchema = z
  .string()
  .transform((s) => s.replace(/[\r\n\t]+/g, ' ').trim())
  .superRefine(charsBetween(0, THREAD_TITLE_MAX))
  .refine(noControlChars, CONTROL_CHARS);

/** Markdown text: at most 50,000 characters (empty is allowed only in a draft, checked on the body). */
/** NUL can be stored by neither database's text type, and no text needs it: it is dropped. */
export const withoutNul = (s: string): string => s.replaceAll(String.fromCharCode(0), '');

/** A search keyword: trimmed, NUL dropped, at most 100 characters. */
export const searchKeywordSchema = labeled(
  z.string().transform(withoutNul).pipe(z.string().trim().max(SEARCH_KEYWORD_MAX)),
  { zh: '搜索词', en: 'Search words' },
);

export const contentTextSchema = z.string().transform(withoutNul).superRefine(charsBetween(0, POST_CONTENT_MAX));

export const contentObject = z.object({ text: contentTextSchema });

const EMPTY = problem({ kind: 'empty' });

/** POST /api/v3/thread.create */
export const threadCreateBody = z
  .object({
    categoryId: bodyId,
    title: titleSchema,
    content: contentObject,
    /** Save as a draft (visible to the author only, through thread.list filter[complex]=1). */
    draft: bodyFlag.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.draft) return;
    if (body.title === '') ctx.addIssue({ code: 'custom', path: ['title'], ...EMPTY });
    if (body.content.text.trim() === '') ctx.addIssue({ code: 'custom', path: ['content', 'text'], ...EMPTY });
  });
export type ThreadCreateBody = z.infer<typeof threadCreateBody>;

/** POST /api/v3/thread.update: only the fields given change; `draft: false` publishes a draft. */
export const threadUpdateBody = z
  .object({
    threadId: bodyId,
    title: titleSchema.optional(),
    content: contentObject.optional(),
    categoryId: bodyId.optional(),
    draft: bodyFlag.optional(),
  })
  .superRefine((body, ctx) => {
    if (
      body.title === undefined &&
      body.content === undefined &&
      body.categoryId === undefined &&
      body.draft === undefined
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['title'],
        ...problem({ kind: 'sentence', zh: '没有要修改的内容', en: 'Nothing to change' }),
      });
    }
  });
export type ThreadUpdateBody = z.infer<typeof threadUpdateBody>;

/** POST /api/v3/thread.delete */
export const threadDeleteBody = z.object({ threadId: bodyId });

/** POST /api/v3/threads/operate: each field needs its own permission; all are checked before any applies. */
export const threadOperateBody = z
  .object({
    id: bodyId,
    isSticky: bodyFlag.optional(),
    isEssence: bodyFlag.optional(),
    isFavorite: bodyFlag.optional(),
    isDeleted: bodyFlag.optional(),
    /** Move to this category. */
    categoriesId: bodyId.optional(),
  })
  .superRefine((body, ctx) => {
    if (
      body.isSticky === undefined &&
      body.isEssence === undefined &&
      body.isFavorite === undefined &&
      body.isDeleted === undefined &&
      body.categoriesId === undefined
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['id'],
        ...problem({ kind: 'sentence', zh: '没有要执行的操作', en: 'Nothing to do' }),
      });
    }
  });
export type ThreadOperateBody = z.infer<typeof threadOperateBody>;

/** The family's thread.list sorts. */
export const ThreadSort = { CREATED: 1, LAST_POSTED: 2, HOT: 3, UPDATED: 4 } as const;
/** The family's thread.list `complex` filters (4, purchased, comes with payments). */
export const ThreadComplex = { MY_DRAFTS: 1, LIKED: 2, FAVORITES: 3, BY_USER: 5 } as const;

/** GET /api/v3/thread.list */
export const threadListQuery = z.object({
  ...pageQuery,
  /** The family's scope (0 normal, 1 recommended, 2 search, 3 paid-site home); only 0 and 2 differ in nothing here. */
  scope: z.coerce.number().int().min(0).max(3).optional(),
  filter: z
    .object({
      categoryids: queryIdList,
      sort: z.coerce.number().int().min(1).max(4).default(ThreadSort.CREATED),
      essence: queryFlag.optional(),
      search: searchKeywordSchema.optional(),
      complex: z.coerce
        .number()
        .int()
        .refine((n) => [1, 2, 3, 5].includes(n), problem({ kind: 'notOneOf', values: [1, 2, 3, 5] }))
        .optional(),
      toUserId: queryId.optional(),
    })
    .prefault({}),
});
export type ThreadListQuery = z.infer<typeof threadListQuery>;

/** GET /api/v3/thread.detail */
export const threadDetailQuery = z.object({ threadId: queryId });

/** GET /api/v3/thread.likedusers: who liked the thread's first post (or `postId`, a post of the thread). */
export const likedUsersQuery = z.object({ threadId: queryId, postId: queryId.optional(), ...pageQuery });

/** POST (or GET, as the family did) /api/v3/view.count */
export const viewCountBody = z.object({ threadId: bodyId });
export const viewCountQuery = z.object({ threadId: queryId });

/** GET /api/v3/thread.stick: the sticky threads of the home page or of a category. */
export const threadStickQuery = z.object({ categoryId: queryId.optional() });

/** The author as lists show them. */
export interface UserSummary {
  userId: number;
  nickname: string;
  avatar: string;
}

/** What the viewer may do with a thread (buttons to show). */
export interface ThreadAbility {
  canViewPosts: boolean;
  canReply: boolean;
  canLike: boolean;
  canFavorite: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canEssence: boolean;
  canSticky: boolean;
  /** Move to another category (threads/operate categoriesId). */
  canMove: boolean;
}

/** One item of thread.list `pageData`. */
export interface ThreadItem {
  threadId: number;
  /** The first post: like it with posts.update {id: postId, isLiked}. */
  postId: number;
  categoryId: number;
  categoryName: string;
  title: string;
  /** Plain text: the start of the first post, Markdown and HTML removed. */
  summary: string;
  user: UserSummary;
  viewCount: number;
  /** Visible replies (comments on replies are in each reply's replyCount). */
  postCount: number;
  likeCount: number;
  favoriteCount: number;
  isSticky: boolean;
  isEssence: boolean;
  /** False for the author's own threads waiting for review (others never see them). */
  isApproved: boolean;
  isDraft: boolean;
  isLiked: boolean;
  isFavorite: boolean;
  createdAt: string;
  updatedAt: string;
  lastPostedAt: string;
  ability: ThreadAbility;
}

/** thread.detail, thread.create and thread.update answer a thread with its first post's content. */
export interface ThreadDetail extends ThreadItem {
  content: {
    /** The Markdown source. */
    text: string;
    /** Rendered, sanitised HTML. */
    html: string;
  };
  /** Users mentioned in the first post. */
  mentions: UserSummary[];
}

export interface LikedUser extends UserSummary {
  likedAt: string;
}
