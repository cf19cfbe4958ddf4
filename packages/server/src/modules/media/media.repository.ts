import { OrderType } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { Attachment, DB } from '../../db/schema.js';

/** A thread's part value of a type (thread_parts.value, parsed), if it holds one. */
export async function partValue<V>(db: Kysely<DB>, threadId: number, type: number): Promise<V | undefined> {
  const row = await db
    .selectFrom('threadParts')
    .select('value')
    .where('threadId', '=', threadId)
    .where('type', '=', type)
    .executeTakeFirst();
  return row ? (JSON.parse(row.value) as V) : undefined;
}

/** The attachments of these ids, in the order asked (those that exist). */
export async function attachmentsByIds(db: Kysely<DB>, ids: readonly number[]): Promise<Attachment[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('attachments')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((a): a is Attachment => a !== undefined);
}

/** Ties attachments to the thread's first post (they are no longer free to link elsewhere). */
export async function linkToPost(db: Kysely<DB>, ids: readonly number[], postId: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('attachments')
    .set({ postId })
    .where('id', 'in', [...ids])
    .execute();
}

/** Frees attachments a part no longer holds (they may be linked again by their owner). */
export async function unlinkFromPost(db: Kysely<DB>, ids: readonly number[], postId: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('attachments')
    .set({ postId: null })
    .where('id', 'in', [...ids])
    .where('postId', '=', postId)
    .execute();
}

/** Whether the member bought the thread's files (order type 7, a purchases row). */
export async function boughtFiles(db: Kysely<DB>, userId: number, threadId: number): Promise<boolean> {
  const row = await db
    .selectFrom('purchases')
    .select('orderId')
    .where('userId', '=', userId)
    .where('type', '=', OrderType.ATTACHMENT)
    .where('thingId', '=', threadId)
    .executeTakeFirst();
  return row !== undefined;
}
