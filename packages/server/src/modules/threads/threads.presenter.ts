import { formatMoney, ThreadPart, type ThreadDetail, type ThreadItem } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ViewerContext } from '../../access/viewer.js';
import { mentionedUsers } from './post-rows.repository.js';
import { freeCharCount, freeContent, freeSummary, plainLength } from '../content/index.js';
import { firstPostHtmlByThread } from './free-part.repository.js';
import { readsWhole, threadAbility } from './thread.policy.js';
import { authorSeenBy } from './anonymous.js';
import { presentPosition } from './thread-position.js';
import { boughtThreadIds } from './thread-purchases.repository.js';
import { likedAndFavorited, type ThreadDetailRead, type ThreadRow } from './threads.repository.js';
import {
  partTypesByThread,
  presentThreadParts,
  threadPartRows,
  type ThreadPartRegistry,
} from '../thread-parts/index.js';

export function presentThread(
  viewer: ViewerContext,
  t: ThreadRow,
  flags: {
    isLiked: boolean;
    isFavorite: boolean;
    bought: boolean;
    parts: readonly number[];
    pinned: boolean;
    /** How many characters of the body are free (used only when the viewer may not read it whole). */
    freeChars: number;
  },
): ThreadItem {
  const whole = readsWhole(viewer, t, flags.bought);
  return {
    threadId: t.id,
    postId: t.firstPostId ?? 0,
    categoryId: t.categoryId,
    categoryName: t.categoryName,
    title: t.title,
    summary: whole ? t.summary : freeSummary(t.summary, flags.freeChars),
    user: authorSeenBy(viewer, t, { userId: t.userId, nickname: t.authorNickname, avatar: t.authorAvatar }),
    viewCount: t.viewCount,
    postCount: t.postCount,
    likeCount: t.likeCount,
    favoriteCount: t.favoriteCount,
    isSticky: t.isSticky === 1,
    isEssence: t.isEssence === 1,
    isApproved: t.isApproved === 1,
    isDraft: t.isDraft === 1,
    isLiked: flags.isLiked,
    isFavorite: flags.isFavorite,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    lastPostedAt: t.lastPostedAt,
    ability: threadAbility(viewer, t),
    price: formatMoney(t.priceCents),
    freeWords: t.freeWordsFraction,
    paid: flags.bought,
    isAnonymous: t.isAnonymous === 1,
    canViewFull: whole,
    parts: [...flags.parts],
    isRedPack: flags.parts.includes(ThreadPart.RED_PACKET),
    isReward: flags.parts.includes(ThreadPart.REWARD),
    isVote: flags.parts.includes(ThreadPart.VOTE),
    position: presentPosition(t),
    userStickStatus: flags.pinned,
  };
}

/** What a list shows of its threads whoever asks: the kinds of parts each holds, and which are pinned by their author. */
export interface ListMarks {
  parts: ReadonlyMap<number, readonly number[]>;
  pinned: ReadonlySet<number>;
}

/** The marks of a list's rows: their parts, read in one statement, and their pins, read with the rows. */
export async function listMarks(db: Kysely<DB>, rows: readonly ThreadRow[]): Promise<ListMarks> {
  const parts = await partTypesByThread(
    db,
    rows.map((r) => r.id),
  );
  return { parts, pinned: new Set(rows.filter((r) => Boolean(r.pinned)).map((r) => r.id)) };
}

/** What the viewer liked (first posts), keeps among their favourites and bought, when already read. */
interface OwnMarks {
  liked: ReadonlySet<number>;
  favorites: ReadonlySet<number>;
  bought: ReadonlySet<number>;
}

/**
 * Presents a page of threads, with whether the viewer liked and favourited each (one query for the page) and bought
 * the paid ones (one more when the page holds any). `marks`: the threads' parts and pins, when already read (a kept
 * list, kept-lists.ts).
 */
export async function presentThreads(
  db: Kysely<DB>,
  viewer: ViewerContext,
  rows: readonly ThreadRow[],
  marks?: ListMarks | Promise<ListMarks>,
  own?: OwnMarks,
): Promise<ThreadItem[]> {
  const userId = viewer.user?.id;
  const priced = rows.filter((r) => r.priceCents > 0).map((r) => r.id);
  const marksOf = marks ?? listMarks(db, rows);
  const [{ liked, favorites }, bought] = own
    ? [own, own.bought]
    : userId
      ? await Promise.all([
          likedAndFavorited(
            db,
            userId,
            rows.map((r) => r.firstPostId ?? 0),
            rows.map((r) => r.id),
          ),
          boughtThreadIds(db, userId, priced),
        ])
      : [{ liked: new Set<number>(), favorites: new Set<number>() }, new Set<number>()];
  const { parts, pinned } = await marksOf;
  // A free part is a fraction of the body: cutting a summary needs the body's length (only of paid threads the
  // viewer may not read whole, so a page without any costs no query).
  const cut = rows.filter((r) => r.priceCents > 0 && !readsWhole(viewer, r, bought.has(r.id))).map((r) => r.id);
  const bodies = await firstPostHtmlByThread(db, cut);
  return rows.map((r) => {
    // Only the bodies read are measured: the plain text of every other row's would be '' (no free characters).
    const body = bodies.get(r.id);
    return presentThread(viewer, r, {
      isLiked: liked.has(r.firstPostId ?? 0),
      isFavorite: favorites.has(r.id),
      bought: bought.has(r.id),
      parts: parts.get(r.id) ?? [],
      pinned: pinned.has(r.id),
      freeChars: body === undefined ? 0 : freeCharCount(r.freeWordsFraction, plainLength(body)),
    });
  });
}

/**
 * A thread with the content of its first post (of a paid thread the viewer may not read whole, the free part only,
 * without mentions) and what it sold and received in rewards.
 */
export async function presentThreadDetail(
  db: Kysely<DB>,
  registry: ThreadPartRegistry,
  viewer: ViewerContext,
  read: ThreadDetailRead,
): Promise<ThreadDetail> {
  const { row, first } = read;
  // The parts' rows are read once: their kinds are the thread's marks, their values its `content.indexes`.
  const partRowsRead = threadPartRows(db, row.id);
  const marks = partRowsRead.then((parts): ListMarks => ({
    parts: new Map([[row.id, parts.map((part) => part.type)]]),
    pinned: row.pinned ? new Set([row.id]) : new Set(),
  }));
  // The viewer's own marks came with the thread (a member's detail makes no statement of its own for them).
  const own = {
    liked: new Set(read.own.liked ? [row.firstPostId ?? 0] : []),
    favorites: new Set(read.own.favorite ? [row.id] : []),
    bought: new Set(read.own.bought ? [row.id] : []),
  };
  const [item] = await presentThreads(db, viewer, [row], marks, own);
  const whole = item!.canViewFull;
  const mentions = first && whole && read.firstMentions ? await mentionedUsers(db, first.id) : [];
  const html = first?.contentHtml ?? '';
  const indexes = await presentThreadParts(
    db,
    registry,
    {
      viewer,
      thread: {
        id: row.id,
        userId: row.userId,
        categoryId: row.categoryId,
        postId: row.firstPostId ?? 0,
        isDraft: row.isDraft === 1,
      },
      canViewFull: whole,
    },
    await partRowsRead,
  );
  return {
    ...item!,
    content: { ...(whole ? { text: first?.content ?? '', html } : freeContent(html, row.freeWordsFraction)), indexes },
    mentions,
    editedAt: first?.editedAt ?? null,
    paidCount: read.paidCount,
    rewardedCount: read.rewardedCount,
    rewardedAmount: formatMoney(read.rewardedCents),
  };
}
