import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// The thread each member pinned to the top of their profile (user/thread.stick): one row per member at most.

export async function pinnedThreadOf(db: Kysely<DB>, userId: number): Promise<number | null> {
  const row = await db
    .selectFrom('userThreadSticks')
    .select('threadId')
    .where('userId', '=', userId)
    .executeTakeFirst();
  return row?.threadId ?? null;
}

/** Pins a thread for its author, replacing the one pinned before. */
export async function pinThread(db: Kysely<DB>, userId: number, threadId: number, at: string): Promise<void> {
  await db
    .insertInto('userThreadSticks')
    .values({ userId, threadId, createdAt: at })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ threadId, createdAt: at }))
    .execute();
}

export async function unpinThread(db: Kysely<DB>, userId: number, threadId: number): Promise<void> {
  await db.deleteFrom('userThreadSticks').where('userId', '=', userId).where('threadId', '=', threadId).execute();
}
