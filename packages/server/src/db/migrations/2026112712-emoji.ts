import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * The site's own image emoji (modules/emoji), the family's `emoji` table: a `:code:` (with its colons, as the family
 * stores it) shown as the image at `url` (an http(s) address or a path on this site, e.g. `emoji/qq/weixiao.gif`),
 * grouped by `category` and sorted by `order`. Empty on a new site; an import fills it.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('emoji'))
    .addColumn('category', 'varchar(255)', (c) => c.notNull())
    .addColumn('url', 'varchar(255)', (c) => c.notNull())
    .addColumn('code', 'varchar(255)', (c) => c.notNull())
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('emoji_code_idx').on('emoji').column('code').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('emoji').execute();
}
