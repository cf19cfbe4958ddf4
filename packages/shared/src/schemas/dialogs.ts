import { z } from 'zod';
import { usernameSchema } from './auth.js';
import { bodyId, queryId } from './categories.js';
import { charsBetween, noControlCharsInLines, paginationQuery } from './common.js';
import { labeled } from './field-labels.js';
import { problem } from '../validation-messages.js';

/** A private message: at most 1,000 characters of text, and/or one image. */
export const DIALOG_MESSAGE_MAX = 1000;

/** An image of ours: the URL the attachment upload answers (GET /api/v3/attachments/<key>.<ext>). */
export const DIALOG_IMAGE_URL = /^\/api\/v3\/attachments\/[A-Za-z0-9_-]{16,64}\.(jpg|png|gif|webp)$/;

const messageText = labeled(
  z
    .string()
    .trim()
    .superRefine(charsBetween(0, DIALOG_MESSAGE_MAX))
    .refine(noControlCharsInLines, problem({ kind: 'controlChars' })),
  { zh: '私信内容', en: 'Message' },
);
const imageUrl = labeled(z.string().regex(DIALOG_IMAGE_URL), { zh: '图片', en: 'Image' });

const nothingToSend = problem({
  kind: 'sentence',
  zh: '请输入私信内容或选择一张图片',
  en: 'Write a message or choose an image',
});

const messageParts = {
  messageText: messageText.default(''),
  imageUrl: imageUrl.optional(),
  attachmentId: bodyId.optional(),
};

const hasContent = (b: { messageText: string; imageUrl?: string | undefined; attachmentId?: number | undefined }) =>
  b.messageText !== '' || b.imageUrl !== undefined || b.attachmentId !== undefined;

/** POST /api/v3/dialog.create: to a user by id or by username; creates the dialog or reuses the one there is. */
export const dialogCreateBody = z
  .object({
    recipientUserId: bodyId.optional(),
    recipientUsername: usernameSchema.optional(),
    ...messageParts,
  })
  .refine((b) => b.recipientUserId !== undefined || b.recipientUsername !== undefined, {
    ...problem({ kind: 'sentence', zh: '请选择私信的对象', en: 'Choose whom to write to' }),
    path: ['recipientUserId'],
  })
  .refine(hasContent, { ...nothingToSend, path: ['messageText'] });
export type DialogCreateBody = z.infer<typeof dialogCreateBody>;

/** POST /api/v3/dialog/message.create */
export const dialogMessageCreateBody = z
  .object({ dialogId: bodyId, ...messageParts })
  .refine(hasContent, { ...nothingToSend, path: ['messageText'] });
export type DialogMessageCreateBody = z.infer<typeof dialogMessageCreateBody>;

/** POST /api/v3/dialog.update (mark read), dialog.delete (for me only). */
export const dialogIdBody = z.object({ dialogId: bodyId });

export const dialogListQuery = paginationQuery;
export const dialogRecordQuery = z.object({ userId: queryId });
export const dialogMessagesQuery = paginationQuery.extend({ dialogId: queryId });

export interface DialogUser {
  id: number;
  username: string;
  nickname: string;
  avatarUrl: string;
}

export interface DialogMessageItem {
  id: number;
  dialogId: number;
  userId: number;
  messageText: string;
  imageUrl: string;
  createdAt: string;
  /** Sent by the viewer. */
  isMine: boolean;
  /** false: held by a {MOD} stop word until an administrator approves it (only its sender sees it). */
  isApproved: boolean;
  /** The other member has read it (for the viewer's own messages). */
  isRead: boolean;
}

/** GET /api/v3/dialog: one of my dialogs. */
export interface DialogItem {
  dialogId: number;
  /** The other member. */
  user: DialogUser;
  lastMessage: DialogMessageItem | null;
  unreadCount: number;
  /** The latest activity (the last message). */
  updatedAt: string;
}

/** POST dialog.create and dialog/message.create */
export interface DialogMessageCreated {
  dialogId: number;
  id: number;
}

/** GET /api/backAdmin/manage.dialog.messages: private messages held by a {MOD} stop word, newest first. */
export const dialogReviewListQuery = paginationQuery.extend({
  filter: z
    .object({
      /** 0 (default): waiting for review; 2: ignored. */
      isApproved: z.enum(['0', '2']).default('0').transform(Number),
    })
    .default({ isApproved: 0 }),
});

/** POST /api/backAdmin/manage.dialog.review: approve (delivered), ignore (kept from the recipient) or delete. */
export const dialogReviewBody = z.object({
  ids: z.array(bodyId).min(1).max(100),
  action: z.enum(['approve', 'ignore', 'delete']),
});

export interface DialogReviewItem {
  id: number;
  dialogId: number;
  messageText: string;
  imageUrl: string;
  createdAt: string;
  sender: DialogUser;
  recipient: DialogUser;
  /** 0 waiting, 2 ignored. */
  approvalState: number;
}
