import { RedPacketStatus } from '@luntan/shared';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB, ThreadRedPacketsTable } from '../../db/schema.js';

export type RedPacketRow = Selectable<ThreadRedPacketsTable>;

export async function insertRedPacket(trx: Kysely<DB>, row: Insertable<DB['threadRedPackets']>): Promise<number> {
  const made = await trx.insertInto('threadRedPackets').values(row).returning('id').executeTakeFirstOrThrow();
  return made.id;
}

export async function insertShares(
  trx: Kysely<DB>,
  redPacketId: number,
  threadId: number,
  amounts: readonly number[],
): Promise<void> {
  const rows = amounts.map((amountCents, seq) => ({ redPacketId, threadId, seq, amountCents }));
  for (let i = 0; i < rows.length; i += 50) {
    await trx
      .insertInto('threadRedPacketShares')
      .values(rows.slice(i, i + 50))
      .execute();
  }
}

export async function findRedPacketOfThread(db: Kysely<DB>, threadId: number): Promise<RedPacketRow | undefined> {
  return db.selectFrom('threadRedPackets').selectAll().where('threadId', '=', threadId).executeTakeFirst();
}

export async function findRedPacket(db: Kysely<DB>, id: number): Promise<RedPacketRow | undefined> {
  return db.selectFrom('threadRedPackets').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The member's packet of this thread, if any. */
export async function findShareOf(db: Kysely<DB>, threadId: number, userId: number) {
  return db
    .selectFrom('threadRedPacketShares')
    .select(['id', 'amountCents', 'receivedAt', 'seenAt'])
    .where('threadId', '=', threadId)
    .where('userId', '=', userId)
    .executeTakeFirst();
}

export async function markShareSeen(db: Kysely<DB>, shareId: number, at: string): Promise<void> {
  await db
    .updateTable('threadRedPacketShares')
    .set({ seenAt: at })
    .where('id', '=', shareId)
    .where('seenAt', 'is', null)
    .execute();
}

/**
 * Takes one packet off the red packet while it is handed out and packets are left: a conditional update that also
 * holds the red packet's row until commit, so concurrent claims queue here. Answers whether one was taken.
 */
export async function takeOnePacket(trx: Kysely<DB>, id: number, at: string): Promise<boolean> {
  const res = await trx
    .updateTable('threadRedPackets')
    .set({ remainNumber: sql`remain_number - 1`, updatedAt: at })
    .where('id', '=', id)
    .where('status', '=', RedPacketStatus.VALID)
    .where('remainNumber', '>', 0)
    .where('expiresAt', '>', at)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The first unclaimed packet, given to the member (a conditional update: never one somebody has). */
export async function claimFirstShare(
  trx: Kysely<DB>,
  redPacketId: number,
  userId: number,
  postId: number,
  at: string,
): Promise<{ id: number; amountCents: number } | undefined> {
  const share = await trx
    .selectFrom('threadRedPacketShares')
    .select(['id', 'amountCents'])
    .where('redPacketId', '=', redPacketId)
    .where('userId', 'is', null)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  if (!share) return undefined;
  const res = await trx
    .updateTable('threadRedPacketShares')
    .set({ userId, postId, receivedAt: at })
    .where('id', '=', share.id)
    .where('userId', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return undefined;
  return { id: share.id, amountCents: Number(share.amountCents) };
}

export async function subtractRemain(trx: Kysely<DB>, id: number, cents: number): Promise<void> {
  await trx
    .updateTable('threadRedPackets')
    .set({ remainCents: sql`remain_cents - ${cents}` })
    .where('id', '=', id)
    .execute();
}

/**
 * A red packet waiting for its order starts to be handed out, paid by that order (a conditional update on its status
 * and order: answers false when it was funded already or is another order's), with its 24 hours from now.
 */
export async function activateRedPacket(
  trx: Kysely<DB>,
  id: number,
  orderId: number,
  expiresAt: string,
  at: string,
): Promise<boolean> {
  const res = await trx
    .updateTable('threadRedPackets')
    .set({ status: RedPacketStatus.VALID, expiresAt, updatedAt: at })
    .where('id', '=', id)
    .where('status', '=', RedPacketStatus.PENDING)
    .where('orderId', '=', orderId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * A red packet nobody paid taken away, with its packets (the shares' foreign key cascades), while it is still waiting
 * for its order (it is changed or removed meanwhile). Answers whether this call removed it.
 */
export async function deletePendingRedPacket(trx: Kysely<DB>, id: number): Promise<boolean> {
  const res = await trx
    .deleteFrom('threadRedPackets')
    .where('id', '=', id)
    .where('status', '=', RedPacketStatus.PENDING)
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** Stops handing out (once: answers false when it was stopped already); the row stays locked until commit. */
export async function stopRedPacket(trx: Kysely<DB>, id: number, at: string): Promise<boolean> {
  const res = await trx
    .updateTable('threadRedPackets')
    .set({ status: RedPacketStatus.EXPIRED, updatedAt: at })
    .where('id', '=', id)
    .where('status', '=', RedPacketStatus.VALID)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function recordReturned(trx: Kysely<DB>, id: number, cents: number): Promise<void> {
  await trx
    .updateTable('threadRedPackets')
    .set({ returnedCents: cents, remainCents: 0, remainNumber: 0 })
    .where('id', '=', id)
    .execute();
}

/** Who got what, first first, with their names. */
export async function receivers(db: Kysely<DB>, redPacketId: number) {
  return db
    .selectFrom('threadRedPacketShares as s')
    .innerJoin('users as u', 'u.id', 's.userId')
    .select(['s.userId', 'u.nickname', 'u.avatar', 's.amountCents', 's.receivedAt'])
    .where('s.redPacketId', '=', redPacketId)
    .where('s.userId', 'is not', null)
    .orderBy('s.receivedAt')
    .orderBy('s.id')
    .execute();
}
