import type { Kysely } from 'kysely';
import { invalidField } from '../../core/errors.js';
import type { Attachment, DB } from '../../db/schema.js';
import { requireUser } from '../../access/viewer.js';
import type { PartWrite } from '../thread-parts/index.js';
import { msg } from '../../i18n/index.js';
import { attachmentsByIds, linkToPost, unlinkFromPost } from './media.repository.js';

/**
 * The attachments a part is to hold: each one the poster uploaded, of the part's type, and not linked to a post yet
 * (or linked to this thread's first post already, when the part is changed). Links them to the first post and frees
 * those the part held before and holds no longer. Refuses (-4001 on `field`) an id that does not fit.
 */
export async function takeAttachments(
  trx: Kysely<DB>,
  write: PartWrite,
  field: string,
  ids: readonly number[],
  type: number,
  label: { zh: string; en: string },
  previous: readonly number[] = [],
): Promise<Attachment[]> {
  const user = requireUser(write.viewer);
  const unique = [...new Set(ids)];
  const rows = await attachmentsByIds(trx, unique);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of unique) {
    const a = byId.get(id);
    const free = a && (a.postId === null || a.postId === write.thread.postId);
    if (!a || a.userId !== user.id || a.type !== type || !free) {
      throw invalidField(field, {
        zh: msg('media.notYourUpload', { id: String(id), label: label.zh }).zh,
        en: msg('media.notYourUpload', { id: String(id), label: label.en.toLowerCase() }).en,
      });
    }
  }
  await unlinkFromPost(
    trx,
    previous.filter((id) => !unique.includes(id)),
    write.thread.postId,
  );
  await linkToPost(trx, unique, write.thread.postId);
  return unique.map((id) => byId.get(id)!);
}

/** Frees the attachments of a part that is removed. */
export async function releaseAttachments(trx: Kysely<DB>, write: PartWrite, ids: readonly number[]): Promise<void> {
  await unlinkFromPost(trx, ids, write.thread.postId);
}
