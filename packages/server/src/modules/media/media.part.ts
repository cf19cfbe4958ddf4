import { AttachmentType, ThreadPart, type AudioPartBody, type MediaPart, type VideoPartBody } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { can } from '../../access/viewer.js';
import { durationOfAttachment, mediaMimeTypeOf, presentAttachment } from '../attachments/index.js';
import type { PartRead, PartWrite, ThreadPartHandler } from '../thread-parts/index.js';
import { msg } from '../../i18n/index.js';
import { attachmentsByIds } from './media.repository.js';
import { releaseAttachments, takeAttachments } from './own-attachments.js';

/** What audio or video keeps (thread_parts.value): the attachment, or an external address for imports. */
export interface MediaValue {
  attachmentId: number | null;
  mediaUrl: string;
  posterId: number | null;
}

export const mediaUrlOf = (threadId: number, attachmentId: number): string =>
  `/api/v3/attachment.media?threadId=${threadId}&attachmentsId=${attachmentId}`;

const idsOf = (v: MediaValue) => [v.attachmentId, v.posterId].filter((id): id is number => id !== null);

async function take(
  trx: Kysely<DB>,
  write: PartWrite,
  kind: 'audio' | 'video',
  attachmentId: number | undefined,
  mediaUrl: string | undefined,
  posterId: number | undefined,
  previous: MediaValue | undefined,
): Promise<MediaValue> {
  const tom = kind === 'audio' ? 102 : 103;
  const prev = previous ? idsOf(previous) : [];
  const ids: number[] = [];
  if (attachmentId !== undefined) {
    const type = kind === 'audio' ? AttachmentType.AUDIO : AttachmentType.VIDEO;
    const field = `content.indexes.${tom}.body.${kind}Id`;
    await takeAttachments(trx, write, field, [attachmentId], type, msg(`media.${kind}`), prev);
    ids.push(attachmentId);
  }
  if (posterId !== undefined) {
    const field = `content.indexes.${tom}.body.posterId`;
    await takeAttachments(trx, write, field, [posterId], AttachmentType.IMAGE, msg('attachments.image'), []);
    ids.push(posterId);
  }
  await releaseAttachments(
    trx,
    write,
    prev.filter((id) => !ids.includes(id)),
  );
  return { attachmentId: attachmentId ?? null, mediaUrl: mediaUrl ?? '', posterId: posterId ?? null };
}

async function present(db: Kysely<DB>, read: PartRead, value: MediaValue, kind: 'audio' | 'video'): Promise<MediaPart> {
  const { viewer, thread } = read;
  const allowed = kind === 'audio' || can(viewer, 'thread.viewVideo', thread.categoryId);
  const canPlay = read.canViewFull && allowed;
  const [file, poster] = await Promise.all([
    value.attachmentId ? attachmentsByIds(db, [value.attachmentId]).then((r) => r[0]) : undefined,
    value.posterId ? attachmentsByIds(db, [value.posterId]).then((r) => r[0]) : undefined,
  ]);
  const url = file ? mediaUrlOf(thread.id, file.id) : value.mediaUrl;
  return {
    id: file?.id ?? null,
    fileName: file?.fileName ?? '',
    format: file?.format ?? '',
    fileSize: file?.fileSize ?? 0,
    duration: file ? durationOfAttachment(file) : 0,
    url: canPlay ? url : '',
    posterUrl: poster && read.canViewFull ? presentAttachment(poster).url : '',
    mimeType: file ? mediaMimeTypeOf(file) : '',
    canPlay,
  };
}

/** Audio (part 102): played by whoever reads the thread whole; served with HTTP Range (attachment.media). */
export const audioPart: ThreadPartHandler<typeof ThreadPart.AUDIO, MediaValue> = {
  type: ThreadPart.AUDIO,
  create: (trx, write, body: AudioPartBody) =>
    take(trx, write, 'audio', body.audioId, body.mediaUrl, undefined, undefined),
  update: (trx, write, body: AudioPartBody, previous) =>
    take(trx, write, 'audio', body.audioId, body.mediaUrl, undefined, previous),
  remove: (trx, write, previous) => releaseAttachments(trx, write, idsOf(previous)),
  present: (db, read, value) => present(db, read, value, 'audio'),
};

/** Video (part 103): played by holders of thread.viewVideo who read the thread whole. */
export const videoPart: ThreadPartHandler<typeof ThreadPart.VIDEO, MediaValue> = {
  type: ThreadPart.VIDEO,
  create: (trx, write, body: VideoPartBody) =>
    take(trx, write, 'video', body.videoId, body.mediaUrl, body.posterId, undefined),
  update: (trx, write, body: VideoPartBody, previous) =>
    take(trx, write, 'video', body.videoId, body.mediaUrl, body.posterId, previous),
  remove: (trx, write, previous) => releaseAttachments(trx, write, idsOf(previous)),
  present: (db, read, value) => present(db, read, value, 'video'),
};
