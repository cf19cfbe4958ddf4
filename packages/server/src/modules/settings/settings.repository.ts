import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export function readSetting(db: Kysely<DB>, key: string, tag: string) {
  return db
    .selectFrom('settings')
    .select(['key', 'tag', 'value'])
    .where('key', '=', key)
    .where('tag', '=', tag)
    .executeTakeFirst();
}

export function readSettings(db: Kysely<DB>, keys: readonly string[], tag: string) {
  return db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).where('tag', '=', tag).execute();
}

export function readTag(db: Kysely<DB>, tag: string) {
  return db.selectFrom('settings').select(['key', 'tag', 'value']).where('tag', '=', tag).execute();
}

export function readAllSettings(db: Kysely<DB>) {
  return db.selectFrom('settings').select(['key', 'tag', 'value']).orderBy('tag').orderBy('key').execute();
}

export async function writeSetting(db: Kysely<DB>, key: string, tag: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, tag, value })
    .onConflict((oc) => oc.columns(['key', 'tag']).doUpdateSet({ value }))
    .execute();
}

/** Inserts the value only when the setting does not exist yet (seeding keeps what an administrator changed). */
export async function writeSettingIfAbsent(db: Kysely<DB>, key: string, tag: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, tag, value })
    .onConflict((oc) => oc.columns(['key', 'tag']).doNothing())
    .execute();
}
