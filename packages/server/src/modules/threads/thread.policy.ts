import { Code, type PostAbility, type ThreadAbility } from '@luntan/shared';
import { AppError, forbidden, needLogin, notFound } from '../../core/errors.js';
import type { Post, Thread } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { msg } from '../../i18n/index.js';

/**
 * Who may do what with threads and posts: the spec's keys, held globally or in the thread's category
 * (`category<ID>.<key>`); administrators hold all. Acting needs an account, so a guest never may.
 */

export type ThreadState = Pick<Thread, 'id' | 'categoryId' | 'userId' | 'isDraft' | 'isApproved' | 'deletedAt'>;
export type PostState = Pick<Post, 'id' | 'userId' | 'isFirst' | 'isApproved' | 'deletedAt'>;

export const threadNotFound = () => notFound(msg('threads.threadNotFound'));
export const postNotFound = () => notFound(msg('threads.postNotFound'));

/** The refusal for a missing permission: a guest is sent to log in (-3001), a member is refused (-4002). */
export function denied(viewer: ViewerContext): AppError {
  return viewer.user ? forbidden() : needLogin();
}

const isOwn = (viewer: ViewerContext, userId: number) => viewer.user !== null && viewer.user.id === userId;
const acting = (viewer: ViewerContext, key: string, categoryId: number) =>
  viewer.user !== null && can(viewer, key, categoryId);

/**
 * Whether the thread exists for the viewer: not deleted; drafts only for their author; threads waiting for review
 * only for their author and administrators.
 */
export function threadExistsFor(viewer: ViewerContext, t: ThreadState): boolean {
  if (t.deletedAt !== null) return false;
  if (t.isDraft === 1) return isOwn(viewer, t.userId);
  if (t.isApproved !== 1) return isOwn(viewer, t.userId) || viewer.isAdmin;
  return true;
}

/**
 * -8001 when the poster's group must bind a phone to publish (publishNeedBindPhone) and they have none. The key is
 * a restriction, so administrators (who hold every key) are never stopped by it.
 */
export function assertMayPublish(viewer: ViewerContext): void {
  if (viewer.isAdmin || !viewer.user || viewer.user.mobile) return;
  if (viewer.permissions.has('publishNeedBindPhone')) throw new AppError(Code.NEED_BIND_PHONE);
}

/** Whether the thread is open to replies, likes and favourites (published and approved). */
export const isPublished = (t: ThreadState): boolean => t.deletedAt === null && t.isDraft === 0 && t.isApproved === 1;

/**
 * Whether the viewer may read the thread and its posts: it exists for them and they hold thread.viewPosts in its
 * category. What thread.detail asks (assertCanReadThread), and what decides whether a notice may quote the thread.
 */
export function canReadThread(viewer: ViewerContext, t: ThreadState): boolean {
  return threadExistsFor(viewer, t) && can(viewer, 'thread.viewPosts', t.categoryId);
}

/** Throws -4004 when the thread does not exist for the viewer, -3001/-4002 without thread.viewPosts. */
export function assertCanReadThread(viewer: ViewerContext, t: ThreadState | undefined): asserts t is ThreadState {
  if (!t || !threadExistsFor(viewer, t)) throw threadNotFound();
  if (!canReadThread(viewer, t)) throw denied(viewer);
}

export function canEditThread(viewer: ViewerContext, t: ThreadState): boolean {
  return (
    acting(viewer, 'thread.edit', t.categoryId) ||
    (isOwn(viewer, t.userId) && acting(viewer, 'thread.editOwnThread', t.categoryId))
  );
}

/**
 * Whether the viewer may move a thread into `categoryId`: they may post there or edit its threads (the rule
 * thread.update applies). Moving also needs the right to edit the thread where it is.
 */
export function canMoveThreadInto(viewer: ViewerContext, categoryId: number): boolean {
  return acting(viewer, 'createThread', categoryId) || acting(viewer, 'thread.edit', categoryId);
}

export function canDeleteThread(viewer: ViewerContext, t: ThreadState): boolean {
  return (
    acting(viewer, 'thread.hide', t.categoryId) ||
    (isOwn(viewer, t.userId) && acting(viewer, 'thread.hideOwnThreadOrPost', t.categoryId))
  );
}

/**
 * Whether the viewer reads a thread's whole body: a free thread; a paid one for its author, administrators, holders
 * of thread.freeViewPosts in its category, whoever may edit it (an editor must see what they change) and its
 * buyers (`bought`). Everyone else reads the free part (the `freeWords` fraction of it, content/paid-content.ts).
 */
export function readsWhole(
  viewer: ViewerContext,
  t: ThreadState & Pick<Thread, 'priceCents'>,
  bought: boolean,
): boolean {
  if (t.priceCents <= 0 || bought || viewer.isAdmin || isOwn(viewer, t.userId)) return true;
  return can(viewer, 'thread.freeViewPosts', t.categoryId) || canEditThread(viewer, t);
}

export function threadAbility(viewer: ViewerContext, t: ThreadState): ThreadAbility {
  const open = isPublished(t);
  return {
    canViewPosts: can(viewer, 'thread.viewPosts', t.categoryId),
    canReply: open && acting(viewer, 'thread.reply', t.categoryId),
    canLike: open && acting(viewer, 'thread.likePosts', t.categoryId),
    canFavorite: open && acting(viewer, 'thread.favorite', t.categoryId),
    canEdit: canEditThread(viewer, t),
    canDelete: canDeleteThread(viewer, t),
    canEssence: acting(viewer, 'thread.essence', t.categoryId),
    canSticky: acting(viewer, 'thread.sticky', t.categoryId),
    canMove: acting(viewer, 'thread.edit', t.categoryId),
  };
}

/** Whether a reply or comment exists for the viewer (waiting for review: its author and administrators). */
export function postExistsFor(viewer: ViewerContext, p: PostState): boolean {
  if (p.deletedAt !== null) return false;
  if (p.isApproved !== 1) return isOwn(viewer, p.userId) || viewer.isAdmin;
  return true;
}

export function canEditPost(viewer: ViewerContext, t: ThreadState, p: PostState): boolean {
  return (
    acting(viewer, 'thread.edit', t.categoryId) ||
    (isOwn(viewer, p.userId) && acting(viewer, 'thread.editOwnThread', t.categoryId))
  );
}

export function canHidePost(viewer: ViewerContext, t: ThreadState, p: PostState): boolean {
  return (
    acting(viewer, 'thread.hidePosts', t.categoryId) ||
    (isOwn(viewer, p.userId) && acting(viewer, 'thread.hideOwnThreadOrPost', t.categoryId))
  );
}

export function postAbility(viewer: ViewerContext, t: ThreadState, p: PostState): PostAbility {
  const open = isPublished(t);
  return {
    canEdit: canEditPost(viewer, t, p),
    // The first post goes with its thread (thread.delete).
    canDelete: p.isFirst === 0 && canHidePost(viewer, t, p),
    canLike: open && acting(viewer, 'thread.likePosts', t.categoryId),
    canReply: open && p.isFirst === 0 && acting(viewer, 'thread.reply', t.categoryId),
  };
}
