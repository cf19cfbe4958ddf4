import { z } from 'zod';
import { bodyId } from '../categories.js';
import { labeled } from '../field-labels.js';
import { moneyField } from '../money-field.js';

/** The most files the schema lets through; the site's supportMaxUploadAttachmentNum setting is the real limit. */
export const FILES_PART_MAX = 100;
/** The most a thread's files may cost: 10,000.00 (in cents). */
export const FILES_PRICE_MAX_CENTS = 1_000_000;

/**
 * A thread's files (part 108, thread.insertAttachment), in the family's shape (DocBusi): the ids of attachments of
 * type 0 the poster uploaded (POST /api/v3/attachments, type=file) and not yet linked to another post. `price`
 * (the family's threads.attachment_price) sells the files apart from the thread: order type 7.
 */
export const filesPartBody = z.object({
  docIds: labeled(z.array(bodyId).min(1).max(FILES_PART_MAX), { zh: '附件', en: 'Files' }),
  price: labeled(moneyField(0, FILES_PRICE_MAX_CENTS), { zh: '附件价格', en: 'Price of the files' }).optional(),
});
export type FilesPartBody = z.infer<typeof filesPartBody>;

/** One file as thread.detail answers it. */
export interface FilePartItem {
  id: number;
  fileName: string;
  /** The extension ("pdf"). */
  format: string;
  fileSize: number;
  /** The download address (GET /api/v3/attachment.download?threadId=&attachmentsId=); "" while locked. */
  url: string;
}

/** Part 108 as thread.detail answers it. */
export interface FilesPart {
  docs: FilePartItem[];
  /** What the files cost apart from the thread ("0.00": nothing). */
  price: string;
  /** Whether the viewer must buy the files (order type 7) before downloading. */
  needPay: boolean;
  /** Whether the viewer may see the list (thread.viewAttachment) and the files' names. */
  canView: boolean;
  /** Whether the viewer may download (thread.downloadAttachment, bought when sold). */
  canDownload: boolean;
}
