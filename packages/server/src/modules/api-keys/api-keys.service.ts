import type { ApiKeyCreateBody, ApiKeyCreated, ApiKeyItem, ApiKeyScope } from '@luntan/shared';
import type { Kysely } from 'kysely';
import { notFound, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { insertApiKey, newApiKey } from '../../access/api-keys.repository.js';

const missingKey = () => notFound({ zh: '没有这个 API 密钥', en: 'There is no such API key' });

function listQuery(db: Kysely<DB>) {
  return db
    .selectFrom('apiKeys')
    .innerJoin('users', 'users.id', 'apiKeys.userId')
    .select([
      'apiKeys.id',
      'apiKeys.name',
      'apiKeys.scope',
      'apiKeys.userId',
      'users.nickname',
      'apiKeys.keyPrefix',
      'apiKeys.createdAt',
      'apiKeys.lastUsedAt',
      'apiKeys.revokedAt',
    ]);
}

const present = (row: Awaited<ReturnType<ReturnType<typeof listQuery>['executeTakeFirstOrThrow']>>): ApiKeyItem => ({
  ...row,
  scope: row.scope as ApiKeyScope,
});

/** The keys, newest first (revoked ones too, marked). */
export async function listApiKeys(db: Kysely<DB>): Promise<ApiKeyItem[]> {
  return (await listQuery(db).orderBy('apiKeys.id', 'desc').execute()).map(present);
}

/** Makes a key acting as `userId` (or the administrator); answers it with the key, which is never shown again. */
export async function createApiKey(
  db: Kysely<DB>,
  viewer: ViewerContext,
  body: ApiKeyCreateBody,
): Promise<ApiKeyCreated> {
  const admin = requireUser(viewer);
  const userId = body.userId ?? admin.id;
  const member = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!member) throw notFoundField('userId', { zh: '没有这个用户', en: 'There is no such member' });
  const key = newApiKey();
  const id = await insertApiKey(db, {
    name: body.name,
    scope: body.scope,
    userId,
    createdBy: admin.id,
    key,
    createdAt: now(),
  });
  return { ...present(await listQuery(db).where('apiKeys.id', '=', id).executeTakeFirstOrThrow()), key };
}

/** Revokes a key: it stops working at once, in every process (the `viewers` counter moves: migration 2026112930). */
export async function revokeApiKey(db: Kysely<DB>, id: number): Promise<ApiKeyItem> {
  const row = await db.selectFrom('apiKeys').select(['id', 'revokedAt']).where('id', '=', id).executeTakeFirst();
  if (!row) throw missingKey();
  if (row.revokedAt === null) {
    await db.updateTable('apiKeys').set({ revokedAt: now() }).where('id', '=', id).execute();
  }
  return present(await listQuery(db).where('apiKeys.id', '=', id).executeTakeFirstOrThrow());
}
