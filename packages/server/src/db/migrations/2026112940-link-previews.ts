import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Link previews (issue 26, part 6; modules/link-previews): one row per address that appeared alone on its line in a
 * post, fetched once by the server (pending, fetching while claimed until `claimed_until`, ok or failed), with what
 * its card shows: title, description, the site's name and `image`, the forum's own copy of the page's image
 * (/uploads/previews/...) or ''. `link_preview_posts` says which posts name it, to render them again once it is
 * fetched. Immutable once on main.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('link_previews'))
    .addColumn('url', 'varchar(2000)', (c) => c.notNull().unique())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('title', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('site_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('image', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'varchar(500)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'varchar(32)')
    .addColumn('fetched_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_previews_status_idx').on('link_previews').columns(['status', 'id']).execute();
  await db.schema
    .createTable('link_preview_posts')
    .addColumn('preview_id', 'integer', (c) => c.notNull().references('link_previews.id').onDelete('cascade'))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('link_preview_posts_pk', ['preview_id', 'post_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_preview_posts').execute();
  await db.schema.dropTable('link_previews').execute();
}
