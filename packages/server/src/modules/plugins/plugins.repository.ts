import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DB, PluginsTable } from '../../db/schema.js';

/* All the SQL of installed plugins: their records and their files (the store: plugin-store.repository.ts). */

type Db = Kysely<DB> | Transaction<DB>;
type Row = Selectable<PluginsTable>;

export async function findPluginRow(db: Db, appid: string): Promise<Row | undefined> {
  return db.selectFrom('plugins').selectAll().where('appid', '=', appid).executeTakeFirst();
}

/** The installed plugins, oldest first (enabled ones only when asked). */
export async function listPluginRows(db: Db, enabledOnly = false): Promise<Row[]> {
  let q = db.selectFrom('plugins').selectAll();
  if (enabledOnly) q = q.where('enabled', '=', 1);
  return q.orderBy('installedAt').execute();
}

/** A file of a package version (files are kept per content hash; one already there stays). */
export async function insertPluginFile(
  trx: Db,
  f: { appid: string; contentHash: string; path: string; body: Buffer },
): Promise<void> {
  await trx
    .insertInto('pluginFiles')
    .values(f)
    .onConflict((oc) => oc.columns(['appid', 'contentHash', 'path']).doNothing())
    .execute();
}

export async function insertPluginRow(trx: Db, values: Insertable<PluginsTable>): Promise<void> {
  await trx.insertInto('plugins').values(values).execute();
}

/** Changes a plugin's record; answers how many rows changed (0: no such plugin). */
export async function updatePluginRow(db: Db, appid: string, set: Updateable<PluginsTable>): Promise<number> {
  const result = await db.updateTable('plugins').set(set).where('appid', '=', appid).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Drops the files of every version but the one named. */
export async function deleteOtherFiles(trx: Db, appid: string, keepHash: string): Promise<void> {
  await trx.deleteFrom('pluginFiles').where('appid', '=', appid).where('contentHash', '!=', keepHash).execute();
}

/** Removes a plugin's record, files and store; answers how many records went (0: no such plugin). */
export async function deletePluginRows(trx: Db, appid: string): Promise<number> {
  const result = await trx.deleteFrom('plugins').where('appid', '=', appid).executeTakeFirst();
  await trx.deleteFrom('pluginFiles').where('appid', '=', appid).execute();
  await trx.deleteFrom('pluginStore').where('appid', '=', appid).execute();
  return Number(result.numDeletedRows);
}

export async function readPluginFile(db: Db, appid: string, hash: string, path: string) {
  return db
    .selectFrom('pluginFiles')
    .select('body')
    .where('appid', '=', appid)
    .where('contentHash', '=', hash)
    .where('path', '=', path)
    .executeTakeFirst();
}

export async function readPluginFiles(db: Db, appid: string, hash: string) {
  return db
    .selectFrom('pluginFiles')
    .select(['path', 'body'])
    .where('appid', '=', appid)
    .where('contentHash', '=', hash)
    .execute();
}

/** The enabled plugins' names and manifests, oldest first. */
export async function enabledManifests(db: Db) {
  return db
    .selectFrom('plugins')
    .select(['appid', 'manifest'])
    .where('enabled', '=', 1)
    .orderBy('installedAt')
    .execute();
}
