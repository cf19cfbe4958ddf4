import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Version counters of cached data (the stop-word matcher...). A change raises the counter in its own transaction;
 * every app process reads the counter (one primary-key read) before it uses its cache and rebuilds when the number
 * moved. So several processes over one PostgreSQL database stay right without any message between them.
 */
export async function readCacheVersion(db: Kysely<DB>, name: string): Promise<number> {
  const row = await db.selectFrom('cacheVersions').select('version').where('name', '=', name).executeTakeFirst();
  return row?.version ?? 0;
}

export async function bumpCacheVersion(db: Kysely<DB>, name: string): Promise<void> {
  await db
    .insertInto('cacheVersions')
    .values({ name, version: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ version: eb('cacheVersions.version', '+', 1) })))
    .execute();
}
