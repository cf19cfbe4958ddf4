import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Where an imported site's old file address points now, or undefined. */
export async function findLegacyTarget(db: Kysely<DB>, path: string): Promise<string | undefined> {
  const row = await db.selectFrom('legacyRedirects').select('target').where('path', '=', path).executeTakeFirst();
  return row?.target;
}
