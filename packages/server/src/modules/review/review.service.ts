import {
  ApprovalState,
  type Page,
  type ReviewListQuery,
  type ReviewPostItem,
  type ReviewSubmitBody,
  type ReviewThreadItem,
  pageOf,
} from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { invalidField, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { ViewerContext } from '../../access/viewer.js';
import { findPost, updatePostIf } from '../threads/index.js';
import { countApprovedPost } from '../posts/index.js';
import { presentThreads } from '../threads/index.js';
import { findThread, updateThreadIf } from '../threads/index.js';
import { changeThreadState, lockThread } from '../threads/index.js';
import { countHeldPosts, countHeldThreads, listHeldPosts, listHeldThreads } from './review.repository.js';
import { msg } from '../../i18n/index.js';

export async function threadQueue(
  ctx: AppContext,
  viewer: ViewerContext,
  q: ReviewListQuery,
): Promise<Page<ReviewThreadItem>> {
  const [total, rows] = await Promise.all([
    countHeldThreads(ctx.db, q.filter),
    listHeldThreads(ctx.db, q.filter, (q.page - 1) * q.perPage, q.perPage),
  ]);
  const items = await presentThreads(ctx.db, viewer, rows);
  return pageOf(
    items.map((item, i) => ({
      ...item,
      content: { text: rows[i]!.firstContent ?? '', html: rows[i]!.firstContentHtml ?? '' },
    })),
    q.page,
    q.perPage,
    total,
  );
}

export async function postQueue(ctx: AppContext, q: ReviewListQuery): Promise<Page<ReviewPostItem>> {
  const [total, rows] = await Promise.all([
    countHeldPosts(ctx.db, q.filter),
    listHeldPosts(ctx.db, q.filter, (q.page - 1) * q.perPage, q.perPage),
  ]);
  return pageOf(
    rows.map((r) => ({
      id: r.id,
      threadId: r.threadId,
      threadTitle: r.threadTitle,
      user: { userId: r.userId, nickname: r.nickname, avatar: r.avatar },
      content: { text: r.content, html: r.contentHtml },
      isComment: r.isComment === 1,
      replyPostId: r.replyPostId,
      isApproved: r.isApproved === 1,
      approvalState: r.isApproved,
      createdAt: r.createdAt,
    })),
    q.page,
    q.perPage,
    total,
  );
}

const notHeld = (kind: string, id: number) =>
  invalidField('ids', kind === 'thread' ? msg('review.threadNotHeld', { id }) : msg('review.postNotHeld', { id }));
const missing = (kind: string, id: number) =>
  notFoundField('ids', kind === 'thread' ? msg('review.threadMissing', { id }) : msg('review.postMissing', { id }));

/**
 * Approves, ignores or deletes held threads or replies, all or none, keeping the counters right: an approved thread
 * counts in its category and for its author; an approved reply in its thread (or its reply, for a comment) and for
 * its author. Ignored items stay out of sight; deleted ones are hidden as thread.delete does.
 */
export async function submitReview(
  ctx: AppContext,
  viewer: ViewerContext,
  body: ReviewSubmitBody,
): Promise<{ type: string; action: string; ids: number[] }> {
  const ids = [...new Set(body.ids)].sort((a, b) => a - b);
  const at = now();
  const actor = viewer.user!.id;
  // Each author is told the decision; approved content then tells whom it answers and mentions.
  const action = ({ approve: 'approved', ignore: 'unapproved', delete: 'deleted' } as const)[body.action];
  await ctx.db.transaction().execute(async (trx) => {
    for (const id of ids) {
      if (body.type === 'thread') {
        await lockThread(trx, ctx.dialect, id);
        const thread = await findThread(trx, id);
        if (!thread || thread.deletedAt !== null) throw missing('thread', id);
        if (thread.isApproved === ApprovalState.APPROVED || thread.isDraft === 1) throw notHeld('thread', id);
        if (body.action === 'approve') await changeThreadState(trx, thread, { isApproved: ApprovalState.APPROVED });
        if (body.action === 'ignore') await updateThreadIf(trx, id, { isApproved: ApprovalState.IGNORED });
        if (body.action === 'delete') await changeThreadState(trx, thread, { deletedAt: at, deletedUserId: actor });
        await ctx.events.emit(trx, 'thread.moderated', { threadId: id, actorId: actor, action, reason: '' });
        continue;
      }
      const post = await findPost(trx, id);
      if (!post || post.deletedAt !== null || post.isFirst === 1) throw missing('post', id);
      await lockThread(trx, ctx.dialect, post.threadId);
      const thread = await findThread(trx, post.threadId);
      if (!thread || thread.deletedAt !== null) throw missing('post', id);
      if (post.isApproved === ApprovalState.APPROVED) throw notHeld('post', id);
      if (body.action === 'approve') {
        await updatePostIf(trx, id, { isApproved: ApprovalState.APPROVED }, false);
        await countApprovedPost(trx, post, at);
      }
      if (body.action === 'ignore') await updatePostIf(trx, id, { isApproved: ApprovalState.IGNORED }, false);
      if (body.action === 'delete') await updatePostIf(trx, id, { deletedAt: at, deletedUserId: actor }, false);
      await ctx.events.emit(trx, 'post.moderated', {
        postId: id,
        threadId: post.threadId,
        actorId: actor,
        action,
        reason: '',
      });
    }
  });
  return { type: body.type, action: body.action, ids };
}
