import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Edit history (issue 26, part 3): every edit of a thread's title or text and of a reply keeps its versions. At a
 * post's first edit, version 1 is what it was (its author, when it was posted), then each edit adds the new version
 * (who made it, when). `title` is the thread's title at that version for a first post, null for a reply. An
 * administrator may hide a version (`hidden`): others see that it existed, not what it said. `posts.edited_at` is the
 * time of the newest edit (null: never edited), which the pages mark. Immutable once on main.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('post_versions'))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(400)')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('post_versions_post_version_unique')
    .on('post_versions')
    .columns(['post_id', 'version'])
    .unique()
    .execute();
  await db.schema.alterTable('posts').addColumn('edited_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('edited_at').execute();
  await db.schema.dropTable('post_versions').execute();
}
