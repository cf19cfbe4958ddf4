import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { bodyId, queryId } from './categories.js';
import { charsBetween, CONTROL_CHARS, noControlChars } from './common.js';
import { labeled } from './field-labels.js';
import { problem } from '../validation-messages.js';
import { moneyField } from './money-field.js';
import { captchaField } from './captcha.js';
import { ThreadSort } from '../list-codes.js';
import { contentIndexes, type ContentIndexes, type ThreadPartView } from './thread-parts.js';
import { threadPosition, type ThreadPosition } from './position.js';

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

/**
 * A thread's content: its Markdown text and its parts (`indexes`, schemas/thread-parts.ts). Replies take text only.
 */
export const contentObject = z.object({ text: contentTextSchema, indexes: contentIndexes.optional() });

/** Whether the content brings at least one part that is not being deleted (a thread of parts may have no text). */
const bringsParts = (content: { indexes?: ContentIndexes | undefined }): boolean =>
  Object.values(content.indexes ?? {}).some((part) => part.operation !== 'delete');

const EMPTY = problem({ kind: 'empty' });

/** The most a thread may cost: 10,000.00 (in cents). */
export const THREAD_PRICE_MAX_CENTS = 1_000_000;
/** The largest legacy free character count (a `freeWords` above 1) a thread.create / thread.update accepts. */
export const THREAD_FREE_WORDS_MAX = 10_000;

/** A thread's price: "0.00" (free) to "10000.00", a string or a number with at most two decimals; parses to cents. */
export const threadPriceSchema = labeled(moneyField(0, THREAD_PRICE_MAX_CENTS), { zh: '价格', en: 'Price' });
/**
 * Of a paid thread, the fraction (0 to 1, e.g. 0.3) of its body's plain text everyone reads, as Discuz! Q means
 * `freeWords`. A whole number above 1 is read as the family's backend reads it: a legacy character count, which the
 * server turns into its fraction of the body (capped at 1).
 */
export const freeWordsSchema = labeled(
  z
    .number()
    .min(0)
    .refine(
      (v) => v <= 1 || (Number.isInteger(v) && v <= THREAD_FREE_WORDS_MAX),
      problem({
        kind: 'sentence',
        zh: `免费部分须是 0 到 1 之间的比例（如 0.3），或不超过 ${THREAD_FREE_WORDS_MAX} 的整数字数`,
        en:
          'The free part must be a fraction from 0 to 1 (such as 0.3), ' +
          `or a whole number of characters up to ${THREAD_FREE_WORDS_MAX}`,
      }),
    ),
  { zh: '免费部分', en: 'Free part' },
);

/** Post a thread anonymously (thread.allowAnonymous in its category): 1/0 or true/false, as the family's `anonymous`. */
export const anonymousFlag = labeled(bodyFlag, { zh: '匿名发布', en: 'Post anonymously' });

/** POST /api/v3/thread.create */
export const threadCreateBody = z
  .object({
    categoryId: bodyId,
    title: titleSchema,
    content: contentObject,
    /** Save as a draft (visible to the author only, through thread.list filter[complex]=1). */
    draft: bodyFlag.optional(),
    /** A paid thread: what reading it whole costs ("12.50"; more than 0 needs thread.insertPay in the category). */
    price: threadPriceSchema.optional(),
    /** Of a paid thread, the fraction (0..1) of the body everyone reads (default 0; above 1: a legacy count). */
    freeWords: freeWordsSchema.optional(),
    /** The captcha's solution, when the poster's group holds createThreadWithCaptcha (forum other.createThreadWithCaptcha). */
    captcha: captchaField.optional(),
    /**
     * Post anonymously (needs thread.allowAnonymous in the category): others see the author as 匿名用户 / Anonymous,
     * without id or avatar; the author and administrators still see who it is.
     */
    anonymous: anonymousFlag.optional(),
    /** Where the thread was written (thread.insertPosition in the category). */
    position: threadPosition.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.draft) return;
    if (body.title === '') ctx.addIssue({ code: 'custom', path: ['title'], ...EMPTY });
    if (body.content.text.trim() === '' && !bringsParts(body.content)) {
      ctx.addIssue({ code: 'custom', path: ['content', 'text'], ...EMPTY });
    }
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
    price: threadPriceSchema.optional(),
    freeWords: freeWordsSchema.optional(),
    /** A new position (thread.insertPosition in the category), or null to remove the thread's position. */
    position: threadPosition.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (
      body.position === undefined &&
      body.title === undefined &&
      body.content === undefined &&
      body.categoryId === undefined &&
      body.draft === undefined &&
      body.price === undefined &&
      body.freeWords === undefined
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
      /** The threads that name a topic (topics.list, the topic page). */
      topicId: queryId.optional(),
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

/** POST /api/v3/thread.share: count one share of a thread. */
export const threadShareBody = z.object({ threadId: bodyId });

/** POST /api/v3/user/thread.stick: pin one's own thread to the top of one's profile (1) or take the pin off (0). */
export const userThreadStickBody = z.object({
  threadId: bodyId,
  status: z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v): 0 | 1 => (v === true || v === 1 ? 1 : 0)),
});

/** What user/thread.stick answers, as the family does. */
export interface UserThreadStick {
  threadId: number;
  status: 0 | 1;
}

/** GET /api/v3/thread.stick: the sticky threads of the home page or of a category. */
export const threadStickQuery = z.object({ categoryId: queryId.optional() });

/** GET /api/v3/thread.recommends: the hot threads (thread.list's sort 3, as the home page's recommend card lists them). */
export const threadRecommendsQuery = z.object({
  perPage: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(5),
  filter: z.object({ categoryids: queryIdList }).prefault({}),
});

/** One thread of thread.recommends, in the family's fields (`title` falls back to the summary when empty). */
export interface ThreadRecommend {
  threadId: number;
  categoryId: number;
  title: string;
  viewCount: number;
}

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
  /** What reading the thread whole costs: "12.50", or "0.00" for a free thread. */
  price: string;
  /**
   * Of a paid thread, the fraction (0 to 1) of the body's plain text everyone reads, as Discuz! Q means it: the free
   * part is its first round(freeWords × length) characters (code points).
   */
  freeWords: number;
  /** Whether the viewer bought the thread (a paid order of type 3). False for free threads and for guests. */
  paid: boolean;
  /**
   * Posted anonymously. To everyone but its author and administrators `user` is then the anonymous user
   * (`ANONYMOUS_USER_ID`, nickname 匿名用户 / Anonymous, no avatar): show no link, no card, no profile. The author
   * and administrators get the real author, to be shown with an "anonymous" mark.
   */
  isAnonymous: boolean;
  /**
   * Whether the viewer reads the whole body: a free thread, or its author, an administrator, a holder of
   * thread.freeViewPosts in its category, someone who may edit it, or a buyer. When false the summary, and in
   * thread.detail the content, hold only the free part (the `freeWords` fraction of the plain text; `content.html`
   * as escaped paragraphs, `content.text` as plain text, no images, no mentions): show the price and a button to buy
   * (order.create type 3).
   */
  canViewFull: boolean;
  /** The types of the parts the thread holds (schemas/thread-parts.ts), for the marks of a list. */
  parts: number[];
  /** Where the thread was written (schemas/position.ts), or null. */
  position: ThreadPosition | null;
  /** The author pinned it to the top of their profile (user/thread.stick). */
  userStickStatus: boolean;
  /** The family's marks: whether the thread holds a red packet (106), a bounty question (107), a vote (109). */
  isRedPack: boolean;
  isReward: boolean;
  isVote: boolean;
  /**
   * Only in a search (thread.list with filter[search]): null when the thread itself (its title or first post) holds
   * the words, else the reply or comment through which it was found.
   */
  matchedPost?: SearchMatchedPost | null;
}

/** A reply or comment holding the searched words, for a thread found through its replies (thread.list search). */
export interface SearchMatchedPost {
  /** The post: on the thread page, the element `post-<id>` (a comment's only among its reply's first comments). */
  postId: number;
  isComment: boolean;
  /** For a comment: the reply it is under (always on the thread page). */
  replyPostId: number | null;
  user: UserSummary;
  createdAt: string;
  /** Plain text around the first match, at most 120 characters (… where cut). */
  excerpt: string;
  /**
   * Where the reply (a comment's reply) is among the thread's replies as posts.list lists them for this viewer, oldest
   * first, from 1: it is on page ceil(position / perPage).
   */
  position: number;
  /** For a comment: where it is among its reply's comments, from 1 (posts.list carries the first COMMENTS_PREVIEW). */
  commentPosition: number | null;
}

/** thread.detail, thread.create and thread.update answer a thread with its first post's content. */
export interface ThreadDetail extends ThreadItem {
  content: {
    /** The Markdown source. */
    text: string;
    /** Rendered, sanitised HTML. */
    html: string;
    /** The thread's parts as this viewer may see them, keyed by type (schemas/thread-parts.ts). */
    indexes: Record<string, ThreadPartView>;
  };
  /** Users mentioned in the first post (none when the viewer reads only the free part). */
  mentions: UserSummary[];
  /** When the title or text was last edited (its history: posts.history of `postId`); null when never. */
  editedAt: string | null;
  /** How many bought the thread (paid orders of type 3). */
  paidCount: number;
  /** How many rewards the thread received (paid orders of type 2), and their total ("12.50"). */
  rewardedCount: number;
  rewardedAmount: string;
}

export interface LikedUser extends UserSummary {
  likedAt: string;
}

/** GET /api/v3/thread.paidusers: who bought the thread (type 3, the default) or rewarded it (type 2), newest first. */
export const paidUsersQuery = z.object({
  threadId: queryId,
  type: z.coerce
    .number()
    .int()
    .refine((n) => n === 2 || n === 3, problem({ kind: 'notOneOf', values: [2, 3] }))
    .default(3),
  ...pageQuery,
});
export type PaidUsersQuery = z.infer<typeof paidUsersQuery>;

/** One payment of thread.paidusers. An anonymous reward shows as 匿名 / Anonymous, with userId null and no avatar. */
export interface PaidUser {
  userId: number | null;
  nickname: string;
  avatar: string;
  isAnonymous: boolean;
  /** What was paid ("12.50"). */
  amount: string;
  paidAt: string;
}
