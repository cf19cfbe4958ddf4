import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { bodyId, queryId } from './categories.js';

export const THREAD_TITLE_MAX = 100;
export const POST_CONTENT_MAX = 50_000;
export const SEARCH_KEYWORD_MAX = 100;
/** Deeper pages than this are refused (-4001): nobody reads them and the offsets only cost. */
export const PAGE_MAX = 100_000;
/** Length of a thread's plain-text summary in lists. */
export const THREAD_SUMMARY_MAX = 200;

/** A refinement's message in both locales: the server answers in the viewer's. */
const says = (en: string, zh: string) => ({ message: en, params: { zh } });
/** Counts code points, so a Chinese character or an emoji is one. */
export const codePoints = (s: string): number => [...s].length;

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
  .refine(
    (s) => codePoints(s) <= THREAD_TITLE_MAX,
    says(`title must be at most ${THREAD_TITLE_MAX} characters`, `标题最多 ${THREAD_TITLE_MAX} 个字符`),
  )
  .refine((s) => !/\p{Cc}/u.test(s), says('title holds control characters', '标题不能包含控制字符'));

/** Markdown text: at most 50,000 characters (empty is allowed only in a draft, checked on the body). */
/** NUL can be stored by neither database's text type, and no text needs it: it is dropped. */
export const withoutNul = (s: string): string => s.replaceAll(String.fromCharCode(0), '');

/** A search keyword: trimmed, NUL dropped, at most 100 characters. */
export const searchKeywordSchema = z.string().transform(withoutNul).pipe(z.string().trim().max(SEARCH_KEYWORD_MAX));

export const contentTextSchema = z
  .string()
  .transform(withoutNul)
  .refine(
    (s) => codePoints(s) <= POST_CONTENT_MAX,
    says(`content must be at most ${POST_CONTENT_MAX} characters`, `内容最多 ${POST_CONTENT_MAX} 个字符`),
  );

export const contentObject = z.object({ text: contentTextSchema });

const notEmptyTitle = says('title must be 1 to 100 characters', '标题需要 1 到 100 个字符');
const notEmptyContent = says('content must not be empty', '内容不能为空');

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
    if (body.title === '') ctx.addIssue({ code: 'custom', path: ['title'], ...notEmptyTitle });
    if (body.content.text.trim() === '')
      ctx.addIssue({ code: 'custom', path: ['content', 'text'], ...notEmptyContent });
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
      ctx.addIssue({ code: 'custom', path: ['title'], ...says('nothing to change', '没有要修改的内容') });
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
        ...says('give at least one of isSticky, isEssence, isFavorite, isDeleted, categoriesId', '没有要执行的操作'),
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
        .refine((n) => [1, 2, 3, 5].includes(n), says('complex must be 1, 2, 3 or 5', 'complex 只能是 1、2、3 或 5'))
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
