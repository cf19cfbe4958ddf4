import { sql, type Kysely } from 'kysely';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';

/* The SQL of plugins' key-value store (values are JSON text; checks of keys and sizes: plugin-runtime.ts). */

export async function readStoreValue(db: Kysely<DB>, appid: string, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('pluginStore')
    .select('value')
    .where('appid', '=', appid)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

export async function upsertStoreValue(db: Kysely<DB>, appid: string, key: string, text: string): Promise<void> {
  await db
    .insertInto('pluginStore')
    .values({ appid, key, value: text, updatedAt: now() })
    .onConflict((oc) => oc.columns(['appid', 'key']).doUpdateSet({ value: text, updatedAt: now() }))
    .execute();
}

/** Stores the value only when the key is free (the primary key decides a race); answers whether it did. */
export async function insertStoreValue(db: Kysely<DB>, appid: string, key: string, text: string): Promise<boolean> {
  const result = await db
    .insertInto('pluginStore')
    .values({ appid, key, value: text, updatedAt: now() })
    .onConflict((oc) => oc.columns(['appid', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteStoreValue(db: Kysely<DB>, appid: string, key: string): Promise<void> {
  await db.deleteFrom('pluginStore').where('appid', '=', appid).where('key', '=', key).execute();
}

/** Up to 1000 entries whose key starts with the prefix (already escaped for LIKE), by key. */
export async function listStoreValues(db: Kysely<DB>, appid: string, escapedPrefix: string) {
  return db
    .selectFrom('pluginStore')
    .select(['key', 'value'])
    .where('appid', '=', appid)
    .where(sql<boolean>`key like ${`${escapedPrefix}%`} escape '\\'`)
    .orderBy('key')
    .limit(1000)
    .execute();
}

/** Adds to a counter in one statement (a missing key starts at `by`); answers the new value as text. */
export async function incrementStoreValue(db: Kysely<DB>, appid: string, key: string, by: number): Promise<string> {
  const row = await db
    .insertInto('pluginStore')
    .values({ appid, key, value: String(by), updatedAt: now() })
    .onConflict((oc) =>
      oc.columns(['appid', 'key']).doUpdateSet({
        value: sql`cast(cast(plugin_store.value as integer) + ${by} as text)`,
        updatedAt: now(),
      }),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}
