import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/*
 * The random password an account gets when it is made without one its owner chose (an outside sign-in, say), kept
 * until the owner sets one: till then the personal centre asks for no current password.
 */

export async function insertGeneratedPassword(db: Kysely<DB>, userId: number, passwordHash: string, at: string) {
  await db.insertInto('userGeneratedPasswords').values({ userId, passwordHash, createdAt: at }).execute();
}

/** The random password an outside sign-in gave the account, while it is still the account's password. */
export async function stillGeneratedPassword(db: Kysely<DB>, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('userGeneratedPasswords')
    .innerJoin('users', 'users.id', 'userGeneratedPasswords.userId')
    .select('users.id')
    .where('userGeneratedPasswords.userId', '=', userId)
    .whereRef('users.passwordHash', '=', 'userGeneratedPasswords.passwordHash')
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets the random password once the account has one its owner chose. */
export async function deleteGeneratedPassword(db: Kysely<DB>, userId: number): Promise<void> {
  await db.deleteFrom('userGeneratedPasswords').where('userId', '=', userId).execute();
}
