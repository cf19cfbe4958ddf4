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

/**
 * Takes one of the code's tries before an answer is compared with it, in one conditional statement: the tries counted
 * with this one, or null when none is left (or the code was used or expired meanwhile). However many answers arrive
 * at once, at most `maxTries` are compared.
 */
export async function takeTry(db: Kysely<DB>, id: number, maxTries: number, at: string): Promise<number | null> {
  const row = await db
    .updateTable('smsCodes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', id)
    .where('tries', '<', maxTries)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', at)
    .returning('tries')
    .executeTakeFirst();
  return row?.tries ?? null;
}

/** Gives back the try a right answer took: only wrong answers count towards voiding a code. */
export async function giveBackTry(db: Kysely<DB>, id: number): Promise<void> {
  await db
    .updateTable('smsCodes')
    .set((eb) => ({ tries: eb('tries', '-', 1) }))
    .where('id', '=', id)
    .where('tries', '>', 0)
    .execute();
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
