import { Code, type PostVersionItem } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../core/errors.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import {
  authorSeenBy,
  findPost,
  findThread,
  listPostVersions,
  postExistsFor,
  postNotFound,
  readsWholeThread,
  setPostVersionHidden,
  threadExistsFor,
} from '../threads/index.js';
import { msg } from '../../i18n/index.js';

/**
 * Who may open a post's edit history: its author, moderators of its category (thread.edit: who may edit it) and
 * administrators. They all read a paid thread whole (threads/thread.policy.ts, readsWhole), and the history is
 * refused to anyone who does not, so paid content stays paid in the history too.
 */
export async function postHistory(ctx: AppContext, viewer: ViewerContext, postId: number): Promise<PostVersionItem[]> {
  const post = await findPost(ctx.db, postId);
  const thread = post ? await findThread(ctx.db, post.threadId) : undefined;
  if (!post || !thread || !threadExistsFor(viewer, thread) || !postExistsFor(viewer, post)) throw postNotFound();
  const allowed =
    viewer.isAdmin ||
    (viewer.user !== null && viewer.user.id === post.userId) ||
    (viewer.user !== null && can(viewer, 'thread.edit', thread.categoryId));
  const readsWhole = post.isFirst !== 1 || (await readsWholeThread(ctx.db, viewer, thread));
  if (!allowed || !readsWhole) throw new AppError(Code.UNAUTHORIZED, msg('posts.historyNotAllowed'));
  const versions = await listPostVersions(ctx.db, post.id);
  return versions.map((v) => {
    const real = { userId: v.userId, nickname: v.nickname ?? '', avatar: v.avatar ?? '' };
    // An anonymous thread's author stays anonymous to whoever may not see them (a moderator), in every version.
    const user = post.isFirst === 1 && v.userId === thread.userId ? authorSeenBy(viewer, thread, real) : real;
    const shown = v.hidden !== 1 || viewer.isAdmin;
    return {
      version: v.version,
      userId: user.userId,
      nickname: user.nickname,
      avatar: user.avatar,
      createdAt: v.createdAt,
      ...(v.title !== null ? { title: shown ? v.title : '' } : {}),
      content: shown ? v.content : '',
      hidden: v.hidden === 1,
    };
  });
}

/** An administrator hides a version from everyone else, or shows it again. */
export async function hidePostVersion(
  ctx: AppContext,
  viewer: ViewerContext,
  body: { postId: number; version: number; hidden: boolean },
): Promise<void> {
  const user = requireUser(viewer);
  if (!viewer.isAdmin) throw new AppError(Code.UNAUTHORIZED);
  if (!(await setPostVersionHidden(ctx.db, body.postId, body.version, body.hidden, user.id))) {
    throw notFound(msg('posts.versionNotFound'));
  }
}
