import type { Insertable, Kysely } from 'kysely';
import type { Attachment, AttachmentsTable, DB } from '../../db/schema.js';

/** The file keys of our attachment URLs found in a post's text (/api/v3/attachments/<key>.<ext>, /uploads/...). */
export function attachmentKeysIn(text: string): string[] {
  const keys = new Set<string>();
  const pattern =
    /\/(?:api\/v3\/attachments|uploads\/attachments\/\d{4}\/\d{2})\/([A-Za-z0-9_-]{16,64})(?:_[a-z0-9]+)?\.[a-z]{3,4}/g;
  for (const m of text.matchAll(pattern)) {
    keys.add(m[1]!);
    if (keys.size >= 100) break;
  }
  return [...keys];
}

/** Ties the author's attachments used in a post's text to the post (attachments of others are left alone). */
export async function linkAttachments(db: Kysely<DB>, userId: number, postId: number, text: string): Promise<void> {
  const keys = attachmentKeysIn(text);
  if (keys.length === 0) return;
  await db
    .updateTable('attachments')
    .set({ postId })
    .where('userId', '=', userId)
    .where('fileKey', 'in', keys)
    .where('postId', 'is', null)
    .execute();
}

export async function insertAttachment(db: Kysely<DB>, values: Insertable<AttachmentsTable>): Promise<number> {
  const row = await db.insertInto('attachments').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findAttachmentByKey(db: Kysely<DB>, fileKey: string): Promise<Attachment | undefined> {
  return db.selectFrom('attachments').selectAll().where('fileKey', '=', fileKey).executeTakeFirst();
}

export function findAttachment(db: Kysely<DB>, id: number): Promise<Attachment | undefined> {
  return db.selectFrom('attachments').selectAll().where('id', '=', id).executeTakeFirst();
}
