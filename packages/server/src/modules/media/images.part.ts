import { AttachmentType, ThreadPart, type ImagesPart, type ImagesPartBody } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { presentAttachment } from '../attachments/index.js';
import type { PartWrite, ThreadPartHandler } from '../thread-parts/index.js';
import { msg } from '../../i18n/index.js';
import { attachmentsByIds } from './media.repository.js';
import { releaseAttachments, takeAttachments } from './own-attachments.js';

interface ImagesValue {
  imageIds: number[];
}

async function valueOf(trx: Kysely<DB>, write: PartWrite, body: ImagesPartBody, previous: number[]) {
  const field = 'content.indexes.101.body.imageIds';
  const taken = await takeAttachments(
    trx,
    write,
    field,
    body.imageIds,
    AttachmentType.IMAGE,
    msg('attachments.image'),
    previous,
  );
  return { imageIds: taken.map((a) => a.id) };
}

/** Images (part 101): a gallery under the text, shown to whoever reads the thread whole. */
export const imagesPart: ThreadPartHandler<typeof ThreadPart.IMAGE, ImagesValue> = {
  type: ThreadPart.IMAGE,
  create: (trx, write, body) => valueOf(trx, write, body, []),
  update: (trx, write, body, previous) => valueOf(trx, write, body, previous.imageIds),
  remove: (trx, write, previous) => releaseAttachments(trx, write, previous.imageIds),
  present: async (db, read, value): Promise<ImagesPart> => {
    if (!read.canViewFull) return { images: [] };
    const rows = await attachmentsByIds(db, value.imageIds);
    return {
      images: rows.map((a) => {
        const p = presentAttachment(a);
        return { id: a.id, fileName: a.fileName, width: a.width, height: a.height, url: p.url, thumbUrl: p.thumbUrl };
      }),
    };
  },
};
