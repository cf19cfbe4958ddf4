import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new random token (256 bits, base64url); only its hash is stored. */
export async function createAccessToken(
  db: Kysely<DB>,
  values: { userId: number; ip: string; userAgent: string; createdAt: string; expiresAt: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('accessTokens')
    .values({ ...values, userAgent: values.userAgent.slice(0, 500), tokenHash: hashToken(token) })
    .execute();
  return token;
}

/** The live token's user, with the token's id and last use: what every signed-in request reads first, in one query. */
export async function findSessionUser(db: Kysely<DB>, token: string, at: string) {
  const row = await db
    .selectFrom('accessTokens')
    .innerJoin('users', 'users.id', 'accessTokens.userId')
    .selectAll('users')
    .select([
      'accessTokens.id as sessionTokenId',
      'accessTokens.lastUsedAt as sessionLastUsedAt',
      'accessTokens.expiresAt as sessionExpiresAt',
    ])
    .where('accessTokens.tokenHash', '=', hashToken(token))
    .where('accessTokens.revokedAt', 'is', null)
    .where('accessTokens.expiresAt', '>', at)
    .executeTakeFirst();
  if (!row) return undefined;
  const { sessionTokenId, sessionLastUsedAt, sessionExpiresAt, ...user } = row;
  return { user, tokenId: sessionTokenId, lastUsedAt: sessionLastUsedAt, expiresAt: sessionExpiresAt };
}

export async function revokeToken(db: Kysely<DB>, tokenId: number, at: string): Promise<void> {
  await db.updateTable('accessTokens').set({ revokedAt: at }).where('id', '=', tokenId).execute();
}

export async function touchToken(db: Kysely<DB>, tokenId: number, at: string): Promise<void> {
  await db.updateTable('accessTokens').set({ lastUsedAt: at }).where('id', '=', tokenId).execute();
}

/** Signs a user out everywhere but the session `keepTokenId` (after a password change). */
export async function revokeOtherTokens(db: Kysely<DB>, userId: number, keepTokenId: number | null, at: string) {
  let q = db
    .updateTable('accessTokens')
    .set({ revokedAt: at })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null);
  if (keepTokenId !== null) q = q.where('id', '!=', keepTokenId);
  await q.execute();
}
