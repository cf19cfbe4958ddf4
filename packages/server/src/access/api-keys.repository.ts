import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { hashToken } from './tokens.repository.js';

/** Every API key starts so: a bearer token that starts otherwise is a session's. */
export const API_KEY_PREFIX = 'lt_';
const KEY_LENGTH = 40;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export type ApiKeyScope = 'read' | 'write' | 'admin';

export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** `lt_` and 40 characters of [A-Za-z0-9], each drawn uniformly (crypto.randomInt): 238 bits. */
export function newApiKey(): string {
  let key = API_KEY_PREFIX;
  for (let i = 0; i < KEY_LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

export async function insertApiKey(
  db: Kysely<DB>,
  values: { name: string; scope: ApiKeyScope; userId: number; createdBy: number; key: string; createdAt: string },
): Promise<number> {
  const row = await db
    .insertInto('apiKeys')
    .values({
      name: values.name,
      scope: values.scope,
      userId: values.userId,
      createdBy: values.createdBy,
      keyHash: hashToken(values.key),
      keyPrefix: values.key.slice(0, API_KEY_PREFIX.length + 5),
      createdAt: values.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A live key's member, with the key's id, scope and last use: what a request with a key reads first. */
export async function findApiKeyUser(db: Kysely<DB>, key: string) {
  const row = await db
    .selectFrom('apiKeys')
    .innerJoin('users', 'users.id', 'apiKeys.userId')
    .selectAll('users')
    .select(['apiKeys.id as apiKeyId', 'apiKeys.scope as apiKeyScope', 'apiKeys.lastUsedAt as apiKeyLastUsedAt'])
    .where('apiKeys.keyHash', '=', hashToken(key))
    .where('apiKeys.revokedAt', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { apiKeyId, apiKeyScope, apiKeyLastUsedAt, ...user } = row;
  return { user, keyId: apiKeyId, scope: apiKeyScope as ApiKeyScope, lastUsedAt: apiKeyLastUsedAt };
}

export async function touchApiKey(db: Kysely<DB>, keyId: number, at: string): Promise<void> {
  await db.updateTable('apiKeys').set({ lastUsedAt: at }).where('id', '=', keyId).execute();
}
