import type { Kysely } from 'kysely';
import type { DB, SmsCode } from '../../db/schema.js';

export { findUserByMobile } from '../users/index.js';

export async function setUserMobile(db: Kysely<DB>, userId: number, mobile: string, at: string): Promise<void> {
  await db.updateTable('users').set({ mobile, updatedAt: at }).where('id', '=', userId).execute();
}

/** A new code for a number and purpose; the earlier ones of that number and purpose stop counting. */
export async function insertCode(
  db: Kysely<DB>,
  values: Pick<SmsCode, 'mobile' | 'type' | 'codeHash' | 'salt' | 'ip' | 'createdAt' | 'expiresAt'>,
): Promise<void> {
  await db
    .updateTable('smsCodes')
    .set({ usedAt: values.createdAt })
    .where('mobile', '=', values.mobile)
    .where('type', '=', values.type)
    .where('usedAt', 'is', null)
    .execute();
  await db.insertInto('smsCodes').values(values).execute();
}

/** The newest code of a number and purpose. */
export function findLatestCode(db: Kysely<DB>, mobile: string, type: string): Promise<SmsCode | undefined> {
  return db
    .selectFrom('smsCodes')
    .selectAll()
    .where('mobile', '=', mobile)
    .where('type', '=', type)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Counts a wrong answer; answers the tries made so far. */
export async function countWrongTry(db: Kysely<DB>, id: number): Promise<number> {
  await db
    .updateTable('smsCodes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', id)
    .execute();
  const row = await db.selectFrom('smsCodes').select('tries').where('id', '=', id).executeTakeFirstOrThrow();
  return row.tries;
}

/** Uses the code up; false when another request used it first. */
export async function useCode(db: Kysely<DB>, id: number, at: string, userId: number | null): Promise<boolean> {
  const result = await db
    .updateTable('smsCodes')
    .set({ usedAt: at, usedBy: userId })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Spends the proof that `userId` received a `verify` code on `mobile` at or after `since`: false when there is none
 * (or another request spent it first).
 */
export async function spendVerifyProof(
  db: Kysely<DB>,
  userId: number,
  mobile: string,
  since: string,
  at: string,
): Promise<boolean> {
  const proof = await db
    .selectFrom('smsCodes')
    .select('id')
    .where('mobile', '=', mobile)
    .where('type', '=', 'verify')
    .where('usedBy', '=', userId)
    .where('usedAt', '>=', since)
    .where('spentAt', 'is', null)
    .orderBy('usedAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!proof) return false;
  const result = await db
    .updateTable('smsCodes')
    .set({ spentAt: at })
    .where('id', '=', proof.id)
    .where('spentAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
