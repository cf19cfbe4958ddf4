import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/*
 * All the SQL of bounty questions: the bounty (thread_bounties) and its awards (bounty_awards). What is left of a
 * bounty changes only through conditional UPDATEs that cannot take it below zero or touch a settled one.
 */

export interface BountyRow {
  id: number;
  threadId: number;
  userId: number;
  type: number;
  amountCents: number;
  remainingCents: number;
  expiresAt: string;
  settledAt: string | null;
}

const COLUMNS = [
  'id',
  'threadId',
  'userId',
  'type',
  'amountCents',
  'remainingCents',
  'expiresAt',
  'settledAt',
] as const;

const numeric = (row: BountyRow): BountyRow => ({
  ...row,
  amountCents: Number(row.amountCents),
  remainingCents: Number(row.remainingCents),
});

export async function findBounty(db: Kysely<DB>, threadId: number): Promise<BountyRow | undefined> {
  const row = await db.selectFrom('threadBounties').select(COLUMNS).where('threadId', '=', threadId).executeTakeFirst();
  return row ? numeric(row) : undefined;
}

export async function insertBounty(
  trx: Kysely<DB>,
  row: { threadId: number; userId: number; type: number; amountCents: number; expiresAt: string; at: string },
): Promise<void> {
  await trx
    .insertInto('threadBounties')
    .values({
      threadId: row.threadId,
      userId: row.userId,
      type: row.type,
      amountCents: row.amountCents,
      remainingCents: row.amountCents,
      expiresAt: row.expiresAt,
      settledAt: null,
      createdAt: row.at,
      updatedAt: row.at,
    })
    .execute();
}

/**
 * Removes a thread's bounty while it is untouched (not settled, nothing awarded) and answers its offer, or null when
 * it was not (anymore): the condition is the statement's own, so a deadline's settlement committed since the caller
 * read the bounty (PostgreSQL reads each statement anew) makes it remove nothing and return nothing twice.
 */
export async function takeBackBounty(trx: Kysely<DB>, threadId: number): Promise<number | null> {
  const row = await trx
    .deleteFrom('threadBounties')
    .where('threadId', '=', threadId)
    .where('settledAt', 'is', null)
    .whereRef('remainingCents', '=', 'amountCents')
    .returning('amountCents')
    .executeTakeFirst();
  return row?.amountCents ?? null;
}

/**
 * Takes `cents` from what is left, only while enough is left, the bounty is open (not settled, before its deadline).
 * Answers whether it was taken: of concurrent awards, only those that fit are.
 */
export async function takeFromBounty(trx: Kysely<DB>, threadId: number, cents: number, at: string): Promise<boolean> {
  const row = await trx
    .updateTable('threadBounties')
    .set({ remainingCents: sql`remaining_cents - ${cents}`, updatedAt: at })
    .where('threadId', '=', threadId)
    .where('settledAt', 'is', null)
    .where('expiresAt', '>', at)
    .where(sql<boolean>`remaining_cents >= ${cents}`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Settles a bounty once: what is left (`remainingCents`, as read) set to zero and the time noted, only while it is
 * unsettled and still holds that amount. Answers whether this call settled it.
 */
export async function settleBounty(trx: Kysely<DB>, threadId: number, remainingCents: number, at: string) {
  const row = await trx
    .updateTable('threadBounties')
    .set({ remainingCents: 0, settledAt: at, updatedAt: at })
    .where('threadId', '=', threadId)
    .where('settledAt', 'is', null)
    .where('remainingCents', '=', remainingCents)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertAward(
  trx: Kysely<DB>,
  row: { threadId: number; postId: number; userId: number; amountCents: number; at: string },
): Promise<void> {
  await trx
    .insertInto('bountyAwards')
    .values({
      threadId: row.threadId,
      postId: row.postId,
      userId: row.userId,
      amountCents: row.amountCents,
      createdAt: row.at,
    })
    .execute();
}

/** A bounty's awards, oldest first, with the answerer's shown name. */
export async function listAwards(db: Kysely<DB>, threadId: number) {
  const rows = await db
    .selectFrom('bountyAwards as a')
    .innerJoin('users as u', 'u.id', 'a.userId')
    .select(['a.postId', 'a.userId', 'a.amountCents', 'a.createdAt', 'u.nickname', 'u.username'])
    .where('a.threadId', '=', threadId)
    .orderBy('a.id')
    .execute();
  return rows.map((r) => ({ ...r, amountCents: Number(r.amountCents) }));
}
