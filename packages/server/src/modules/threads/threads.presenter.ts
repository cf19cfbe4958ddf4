import type { ThreadDetail, ThreadItem } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ViewerContext } from '../auth/viewer.js';
import { findPost, mentionedUsers } from '../posts/posts.repository.js';
import { threadAbility } from './thread.policy.js';
import { likedAndFavorited, type ThreadRow } from './threads.repository.js';

export function presentThread(
  viewer: ViewerContext,
  t: ThreadRow,
  flags: { isLiked: boolean; isFavorite: boolean },
): ThreadItem {
  return {
    threadId: t.id,
    postId: t.firstPostId ?? 0,
    categoryId: t.categoryId,
    categoryName: t.categoryName,
    title: t.title,
    summary: t.summary,
    user: { userId: t.userId, nickname: t.authorNickname, avatar: t.authorAvatar },
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
  };
}

/** Presents a page of threads, with whether the viewer liked and favourited each (one query for the page). */
export async function presentThreads(db: Kysely<DB>, viewer: ViewerContext, rows: ThreadRow[]): Promise<ThreadItem[]> {
  const userId = viewer.user?.id;
  const { liked, favorites } = userId
    ? await likedAndFavorited(
        db,
        userId,
        rows.map((r) => r.firstPostId ?? 0),
        rows.map((r) => r.id),
      )
    : { liked: new Set<number>(), favorites: new Set<number>() };
  return rows.map((r) =>
    presentThread(viewer, r, { isLiked: liked.has(r.firstPostId ?? 0), isFavorite: favorites.has(r.id) }),
  );
}

/** A thread with the content of its first post. */
export async function presentThreadDetail(
  db: Kysely<DB>,
  viewer: ViewerContext,
  row: ThreadRow,
): Promise<ThreadDetail> {
  const [item] = await presentThreads(db, viewer, [row]);
  const first = row.firstPostId ? await findPost(db, row.firstPostId) : undefined;
  const mentions = first ? await mentionedUsers(db, first.id) : [];
  return {
    ...item!,
    content: { text: first?.content ?? '', html: first?.contentHtml ?? '' },
    mentions,
  };
}
