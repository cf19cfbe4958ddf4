import type { Kysely } from 'kysely';
import type { DB, EmailTokensTable, User } from '../../db/schema.js';

type Purpose = EmailTokensTable['purpose'];

/** Addresses compare without regard to case (the unique index is on this form). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function findUserByEmail(db: Kysely<DB>, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('emailNormalized', '=', normalizeEmail(email)).executeTakeFirst();
}

/** Sets (or clears, with null) a member's address and when it was verified. */
export async function setUserEmail(
  db: Kysely<DB>,
  userId: number,
  email: string | null,
  verifiedAt: string | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ email, emailNormalized: email === null ? null : normalizeEmail(email), emailVerifiedAt: verifiedAt })
    .where('id', '=', userId)
    .execute();
}

/** Takes an address from members who never proved it was theirs (someone else just did). */
export async function releaseUnverifiedEmail(db: Kysely<DB>, email: string, exceptUserId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ email: null, emailNormalized: null, emailVerifiedAt: null })
    .where('emailNormalized', '=', normalizeEmail(email))
    .where('emailVerifiedAt', 'is', null)
    .where('id', '!=', exceptUserId)
    .execute();
}

export async function insertEmailToken(
  db: Kysely<DB>,
  values: { userId: number; purpose: Purpose; email: string; tokenHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db.insertInto('emailTokens').values(values).execute();
}

export function findEmailToken(db: Kysely<DB>, tokenHash: string, purpose: Purpose) {
  return db
    .selectFrom('emailTokens')
    .selectAll()
    .where('tokenHash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

/** Marks a link used; false when it already was (a second use, or a race with one). */
export async function useEmailToken(db: Kysely<DB>, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('emailTokens')
    .set({ usedAt: at })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every unused link of one purpose of a member (a newer one replaces them, or the work is done). */
export async function retireEmailTokens(db: Kysely<DB>, userId: number, purpose: Purpose, at: string): Promise<void> {
  await db
    .updateTable('emailTokens')
    .set({ usedAt: at })
    .where('userId', '=', userId)
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .execute();
}

/** The address of the member's newest verification link still open, if any. */
export async function pendingVerification(db: Kysely<DB>, userId: number, at: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('emailTokens')
    .select('email')
    .where('userId', '=', userId)
    .where('purpose', '=', 'verify')
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', at)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.email;
}
