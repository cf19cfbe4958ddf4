import type { Kysely } from 'kysely';

/*
 * What the Discuz! Q importer keeps in the forum's own database (docs/discuzq.md):
 * - import_progress: one row per source table, committed with each batch it records, so an import killed midway
 *   resumes after the last batch that landed, with exact counts and no duplicates;
 * - legacy_redirects: the old site's file addresses (/storage/attachments/…, /storage/avatars/…) and where the
 *   imported file is now, answered with a permanent redirect.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_progress')
    .addColumn('source_table', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('last_key', 'text')
    .addColumn('read_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('written_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('legacy_redirects')
    .addColumn('path', 'varchar(500)', (c) => c.primaryKey())
    .addColumn('target', 'varchar(1000)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('legacy_redirects').execute();
  await db.schema.dropTable('import_progress').execute();
}
