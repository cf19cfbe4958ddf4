import type { DialogReviewItem, Page } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { now } from '../../core/time.js';
import {
  countHeldMessages,
  deleteHeldMessages,
  findDialog,
  listHeldMessages,
  setApproval,
  touchDialog,
} from './dialogs.repository.js';

/** GET /api/backAdmin/manage.dialog.messages: private messages a {MOD} stop word held (or that were ignored). */
export async function listHeldDialogMessages(
  ctx: AppContext,
  q: { page: number; perPage: number; filter: { isApproved: number } },
): Promise<Page<DialogReviewItem>> {
  const state = q.filter.isApproved;
  const [totalCount, rows] = await Promise.all([
    countHeldMessages(ctx.db, state),
    listHeldMessages(ctx.db, state, (q.page - 1) * q.perPage, q.perPage),
  ]);
  return {
    pageData: rows.map((r) => ({
      id: r.id,
      dialogId: r.dialogId,
      messageText: r.messageText,
      imageUrl: r.imageUrl,
      createdAt: r.createdAt,
      sender: { id: r.senderId, username: r.senderUsername, nickname: r.senderNickname, avatarUrl: r.senderAvatar },
      recipient: {
        id: r.recipientId,
        username: r.recipientUsername,
        nickname: r.recipientNickname,
        avatarUrl: r.recipientAvatar,
      },
      approvalState: r.isApproved,
    })),
    currentPage: q.page,
    perPage: q.perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / q.perPage),
  };
}

/**
 * POST /api/backAdmin/manage.dialog.review: approve (the recipient gets it now, live), ignore (kept from the
 * recipient) or delete held messages. Messages already delivered are left alone.
 */
export async function reviewDialogMessages(
  ctx: AppContext,
  body: { ids: number[]; action: 'approve' | 'ignore' | 'delete' },
): Promise<{ changed: number }> {
  if (body.action === 'delete') return { changed: await deleteHeldMessages(ctx.db, body.ids) };
  const state = body.action === 'approve' ? 1 : 2;
  const changed = await ctx.db.transaction().execute(async (trx) => {
    const rows = await setApproval(trx, body.ids, state);
    if (state !== 1) return rows;
    for (const r of rows) {
      await touchDialog(trx, r.dialogId, r.id, now());
      const dialog = await findDialog(trx, r.dialogId);
      if (!dialog) continue;
      const recipientId = dialog.lowUserId === r.userId ? dialog.highUserId : dialog.lowUserId;
      await ctx.events.emit(trx, 'dialog.message.approved', {
        dialogId: r.dialogId,
        messageId: r.id,
        senderId: r.userId,
        recipientId,
      });
    }
    return rows;
  });
  return { changed: changed.length };
}
