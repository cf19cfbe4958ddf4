import { AttachmentType, formatMoney, ThreadPart, type FilesPart, type FilesPartBody } from '@luntan/shared';
import type { Kysely } from 'kysely';
import { fieldError, invalidField } from '../../core/errors.js';
import type { DB } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { Code } from '@luntan/shared';
import type { PartThread, PartWrite, ThreadPartHandler } from '../thread-parts/index.js';
import { readSiteSettings } from '../settings/index.js';
import { msg } from '../../i18n/index.js';
import { attachmentsByIds, boughtFiles } from './media.repository.js';
import { releaseAttachments, takeAttachments } from './own-attachments.js';

/** What a thread's files keep (thread_parts.value): the attachments' ids and their price in cents. */
export interface FilesValue {
  docIds: number[];
  priceCents: number;
}

const FIELD = 'content.indexes.108.body.docIds';

async function valueOf(trx: Kysely<DB>, write: PartWrite, body: FilesPartBody, previous: number[]) {
  const site = await readSiteSettings(trx);
  const max = Math.max(1, Math.trunc(Number(site.supportMaxUploadAttachmentNum) || 9));
  const ids = [...new Set(body.docIds)];
  if (ids.length > max) throw invalidField(FIELD, msg('media.tooManyFiles', { max: String(max) }));
  const priceCents = body.price ?? 0;
  if (priceCents > 0 && !can(write.viewer, 'thread.insertPay', write.thread.categoryId)) {
    throw fieldError(Code.UNAUTHORIZED, 'content.indexes.108.body.price', msg('threads.youNotPostPaid'));
  }
  await takeAttachments(trx, write, FIELD, ids, AttachmentType.FILE, msg('media.file'), previous);
  return { docIds: ids, priceCents };
}

/** Whether the viewer may take the files of a thread sold apart: its author, administrators and its buyers. */
export async function filesUnlocked(
  db: Kysely<DB>,
  viewer: ViewerContext,
  thread: Pick<PartThread, 'id' | 'userId'>,
  value: FilesValue,
): Promise<boolean> {
  if (value.priceCents <= 0 || viewer.isAdmin) return true;
  if (!viewer.user) return false;
  if (viewer.user.id === thread.userId) return true;
  return boughtFiles(db, viewer.user.id, thread.id);
}

export const downloadUrl = (threadId: number, attachmentId: number): string =>
  `/api/v3/attachment.download?threadId=${threadId}&attachmentsId=${attachmentId}`;

/**
 * A thread's files (part 108): listed to holders of thread.viewAttachment, downloaded by holders of
 * thread.downloadAttachment who read the thread whole and, when the files are sold apart (price, order type 7),
 * bought them. A viewer who may not download gets no address.
 */
export const filesPart: ThreadPartHandler<typeof ThreadPart.FILES, FilesValue> = {
  type: ThreadPart.FILES,
  create: (trx, write, body) => valueOf(trx, write, body, []),
  update: (trx, write, body, previous) => valueOf(trx, write, body, previous.docIds),
  remove: (trx, write, previous) => releaseAttachments(trx, write, previous.docIds),
  present: async (db, read, value): Promise<FilesPart> => {
    const { viewer, thread } = read;
    const canView = can(viewer, 'thread.viewAttachment', thread.categoryId);
    const unlocked = await filesUnlocked(db, viewer, thread, value);
    const canDownload =
      canView && read.canViewFull && unlocked && can(viewer, 'thread.downloadAttachment', thread.categoryId);
    const docs = canView ? await attachmentsByIds(db, value.docIds) : [];
    return {
      docs: docs.map((a) => ({
        id: a.id,
        fileName: a.fileName,
        format: a.format,
        fileSize: a.fileSize,
        url: canDownload ? downloadUrl(thread.id, a.id) : '',
      })),
      price: formatMoney(value.priceCents),
      needPay: !unlocked,
      canView,
      canDownload,
    };
  },
};
