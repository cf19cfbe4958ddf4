import {
  AttachmentType,
  Code,
  DIALOG_IMAGE_URL,
  UserStatus,
  type DialogCreateBody,
  type DialogItem,
  type DialogMessageCreated,
  type DialogMessageItem,
  type Page,
  pageOf,
} from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { AppError, invalidField, notFound } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DialogMessagesTable, User } from '../../db/schema.js';
import type { Selectable } from 'kysely';
import { presentAttachment } from '../attachments/index.js';
import { findAttachment } from '../attachments/index.js';
import { requirePermission, requireUser, type ViewerContext } from '../../access/viewer.js';
import { blockBetween } from '../people/index.js';
import { isDialogOpen } from '../settings/index.js';
import { screenText } from '../stop-words/index.js';
import { findUserById, findUserByUsername } from '../users/index.js';
import {
  clearDialog,
  countDialogsOf,
  countMessages,
  countUnread,
  findDialog,
  findDialogBetween,
  findMember,
  findMessages,
  findOrCreateDialog,
  insertMessage,
  lastVisibleMessageId,
  listDialogsOf,
  listMessages,
  markRead,
  otherReadMark,
} from './dialogs.repository.js';
import { msg } from '../../i18n/index.js';

type MessageRow = Selectable<DialogMessagesTable>;

const dialogNotFound = () => notFound(msg('dialogs.noSuchConversation'));

/** Only the two members read or write a dialog: -4002 for anyone else, administrators included. */
async function memberDialog(ctx: AppContext, viewer: ViewerContext, dialogId: number) {
  const me = requireUser(viewer);
  const dialog = await findDialog(ctx.db, dialogId);
  if (!dialog) throw dialogNotFound();
  if (dialog.lowUserId !== me.id && dialog.highUserId !== me.id) {
    throw new AppError(Code.UNAUTHORIZED, msg('dialogs.conversationNotYours'));
  }
  const member = await findMember(ctx.db, dialog.id, me.id);
  const otherId = dialog.lowUserId === me.id ? dialog.highUserId : dialog.lowUserId;
  return { me, dialog, member: member!, otherId };
}

/** What every sent message must pass: the switch, the permission, blocks both ways, the per-member rate. */
async function assertMaySend(ctx: AppContext, viewer: ViewerContext, me: User, recipientId: number): Promise<void> {
  if (!(await isDialogOpen(ctx.db))) throw new AppError(Code.DIALOG_DISABLED);
  requirePermission(viewer, 'dialog.create');
  if (recipientId === me.id) {
    throw invalidField('recipientUserId', msg('dialogs.youCannotSendYourself'));
  }
  const block = await blockBetween(ctx.db, me.id, recipientId);
  if (block.deniedBy) throw new AppError(Code.BLOCKED_BY_USER);
  if (block.denies) throw new AppError(Code.USER_DENIED);
  await ctx.limits.dialogMessages.consume(String(me.id));
}

/** The message's text (stop words of the dialog kind) and image (an attachment of the sender's, or one of our URLs). */
async function prepareMessage(
  ctx: AppContext,
  me: User,
  body: { messageText: string; imageUrl?: string | undefined; attachmentId?: number | undefined },
): Promise<{ messageText: string; imageUrl: string; attachmentId: number | null; held: boolean }> {
  const screened = await screenText(ctx.db, ctx.stopWords, 'dialog', body.messageText, 'messageText');
  let imageUrl = body.imageUrl ?? '';
  let attachmentId: number | null = null;
  if (body.attachmentId !== undefined) {
    const attachment = await findAttachment(ctx.db, body.attachmentId);
    // Only an image is sent this way: an upload of any other type is refused as if it were not there.
    if (!attachment || attachment.userId !== me.id || attachment.type !== AttachmentType.IMAGE) {
      throw invalidField('attachmentId', msg('dialogs.imageNotFound'));
    }
    attachmentId = attachment.id;
    imageUrl = presentAttachment(attachment).url;
  }
  if (imageUrl !== '' && !DIALOG_IMAGE_URL.test(imageUrl)) {
    throw invalidField('imageUrl', msg('dialogs.imageAddressNotValid'));
  }
  return { messageText: screened.text, imageUrl, attachmentId, held: screened.held };
}

async function send(
  ctx: AppContext,
  me: User,
  recipientId: number,
  dialogId: number | null,
  message: Awaited<ReturnType<typeof prepareMessage>>,
): Promise<DialogMessageCreated> {
  const created = await ctx.db.transaction().execute(async (trx) => {
    const at = now();
    const id = dialogId ?? (await findOrCreateDialog(trx, me.id, recipientId, at));
    const messageId = await insertMessage(trx, {
      dialogId: id,
      userId: me.id,
      messageText: message.messageText,
      imageUrl: message.imageUrl,
      attachmentId: message.attachmentId,
      isApproved: message.held ? 0 : 1,
      createdAt: at,
    });
    await ctx.events.emit(trx, 'dialog.message.sent', {
      dialogId: id,
      messageId,
      senderId: me.id,
      recipientId,
      held: message.held,
    });
    return { dialogId: id, id: messageId };
  });
  return created;
}

/** POST /api/v3/dialog.create: to a member by id or username; reuses the dialog of the pair when there is one. */
export async function createDialog(
  ctx: AppContext,
  viewer: ViewerContext,
  body: DialogCreateBody,
): Promise<DialogMessageCreated> {
  const me = requireUser(viewer);
  const recipient =
    body.recipientUserId !== undefined
      ? await findUserById(ctx.db, body.recipientUserId)
      : await findUserByUsername(ctx.db, body.recipientUsername!);
  if (!recipient || recipient.status === UserStatus.REJECTED) {
    throw notFound(msg('dialogs.recipientDoesNotExist'));
  }
  await assertMaySend(ctx, viewer, me, recipient.id);
  const message = await prepareMessage(ctx, me, body);
  const existing = await findDialogBetween(ctx.db, me.id, recipient.id);
  return send(ctx, me, recipient.id, existing?.id ?? null, message);
}

/** POST /api/v3/dialog/message.create */
export async function createMessage(
  ctx: AppContext,
  viewer: ViewerContext,
  body: { dialogId: number; messageText: string; imageUrl?: string | undefined; attachmentId?: number | undefined },
): Promise<DialogMessageCreated> {
  const { me, dialog, otherId } = await memberDialog(ctx, viewer, body.dialogId);
  await assertMaySend(ctx, viewer, me, otherId);
  const message = await prepareMessage(ctx, me, body);
  return send(ctx, me, otherId, dialog.id, message);
}

function presentMessage(m: MessageRow, viewerId: number, otherRead: number): DialogMessageItem {
  return {
    id: m.id,
    dialogId: m.dialogId,
    userId: m.userId,
    messageText: m.messageText,
    imageUrl: m.imageUrl,
    createdAt: m.createdAt,
    isMine: m.userId === viewerId,
    isApproved: m.isApproved === 1,
    isRead: m.userId === viewerId ? m.id <= otherRead : true,
  };
}

/** GET /api/v3/dialog: my dialogs, newest activity first, each with the other member, the last message and my unread. */
export async function listDialogs(
  ctx: AppContext,
  viewer: ViewerContext,
  q: { page: number; perPage: number },
): Promise<Page<DialogItem>> {
  const me = requireUser(viewer);
  const [totalCount, rows] = await Promise.all([
    countDialogsOf(ctx.db, me.id),
    listDialogsOf(ctx.db, me.id, (q.page - 1) * q.perPage, q.perPage),
  ]);
  const ids = rows.map((r) => r.dialogId);
  const [unread, last] = await Promise.all([
    countUnread(ctx.db, me.id, ids),
    findMessages(
      ctx.db,
      rows.map((r) => r.lastMessageId).filter((id): id is number => id !== null),
    ),
  ]);
  const lastById = new Map(last.map((m) => [m.id, m]));
  const items = rows.map((r) => {
    const lastMessage = r.lastMessageId !== null ? lastById.get(r.lastMessageId) : undefined;
    return {
      dialogId: r.dialogId,
      user: { id: r.otherId, username: r.otherUsername, nickname: r.otherNickname, avatarUrl: r.otherAvatar },
      lastMessage: lastMessage ? presentMessage(lastMessage, me.id, 0) : null,
      unreadCount: unread.get(r.dialogId) ?? 0,
      updatedAt: r.updatedAt,
    };
  });
  return pageOf(items, q.page, q.perPage, totalCount);
}

/** GET /api/v3/dialog.record?userId=N: my dialog with N, or null. */
export async function dialogWith(
  ctx: AppContext,
  viewer: ViewerContext,
  userId: number,
): Promise<{ dialogId: number | null }> {
  const me = requireUser(viewer);
  const dialog = await findDialogBetween(ctx.db, me.id, userId);
  return { dialogId: dialog?.id ?? null };
}

/** GET /api/v3/dialog/message: a dialog's messages, newest first (page on to scroll back). */
export async function listDialogMessages(
  ctx: AppContext,
  viewer: ViewerContext,
  q: { dialogId: number; page: number; perPage: number },
): Promise<Page<DialogMessageItem>> {
  const { me, dialog, member } = await memberDialog(ctx, viewer, q.dialogId);
  const [totalCount, rows, otherRead] = await Promise.all([
    countMessages(ctx.db, dialog.id, me.id, member.clearedMessageId),
    listMessages(ctx.db, dialog.id, me.id, member.clearedMessageId, (q.page - 1) * q.perPage, q.perPage),
    otherReadMark(ctx.db, dialog.id, me.id),
  ]);
  return pageOf(
    rows.map((m) => presentMessage(m, me.id, otherRead)),
    q.page,
    q.perPage,
    totalCount,
  );
}

/** POST /api/v3/dialog.update: marks the whole dialog read (for me). */
export async function readDialog(ctx: AppContext, viewer: ViewerContext, dialogId: number): Promise<void> {
  const { me, dialog, otherId } = await memberDialog(ctx, viewer, dialogId);
  await ctx.db.transaction().execute(async (trx) => {
    await markRead(trx, dialog.id, me.id, await lastVisibleMessageId(trx, dialog.id));
    await ctx.events.emit(trx, 'dialog.read', { dialogId: dialog.id, userId: me.id, otherUserId: otherId });
  });
}

/** POST /api/v3/dialog.delete: removes the dialog's messages so far for me only; a new message brings it back. */
export async function deleteDialog(ctx: AppContext, viewer: ViewerContext, dialogId: number): Promise<void> {
  const { me, dialog } = await memberDialog(ctx, viewer, dialogId);
  await clearDialog(ctx.db, dialog.id, me.id, await lastVisibleMessageId(ctx.db, dialog.id));
  await ctx.live.publish(me.id, { kind: 'unread' });
}
