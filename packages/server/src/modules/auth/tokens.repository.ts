import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

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

export function findLiveToken(db: Kysely<DB>, token: string, at: string) {
  return db
    .selectFrom('accessTokens')
    .select(['id', 'userId', 'expiresAt', 'lastUsedAt'])
    .where('tokenHash', '=', hashToken(token))
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', at)
    .executeTakeFirst();
}

export async function revokeToken(db: Kysely<DB>, tokenId: number, at: string): Promise<void> {
  await db.updateTable('accessTokens').set({ revokedAt: at }).where('id', '=', tokenId).execute();
}

export async function touchToken(db: Kysely<DB>, tokenId: number, at: string): Promise<void> {
  await db.updateTable('accessTokens').set({ lastUsedAt: at }).where('id', '=', tokenId).execute();
}
