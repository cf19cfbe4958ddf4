import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-helpers.js';

/*
 * Plugins installed at runtime (docs/plugins.md): the registration record and state of each, the files of its
 * package kept in the database (so every app process, on any machine, serves and runs the same files), and a
 * key-value store for each plugin's server part.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const blob = isPostgres(db) ? 'bytea' : 'blob';
  await db.schema
    .createTable('plugins')
    .addColumn('appid', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('plugin_name', 'varchar(120)', (c) => c.notNull())
    .addColumn('version', 'varchar(16)', (c) => c.notNull())
    .addColumn('manifest', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('server_error', 'text')
    .addColumn('installed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('plugin_files')
    .addColumn('appid', 'varchar(64)', (c) => c.notNull())
    .addColumn('content_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(255)', (c) => c.notNull())
    .addColumn('body', sql.raw(blob), (c) => c.notNull())
    .addPrimaryKeyConstraint('plugin_files_pk', ['appid', 'content_hash', 'path'])
    .execute();
  await db.schema
    .createTable('plugin_store')
    .addColumn('appid', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('plugin_store_pk', ['appid', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('plugin_store').execute();
  await db.schema.dropTable('plugin_files').execute();
  await db.schema.dropTable('plugins').execute();
}
