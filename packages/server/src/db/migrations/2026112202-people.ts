import { sql, type Kysely } from 'kysely';

/*
 * People: who follows whom (a mutual pair is two rows), and the profile fields a member edits in the personal
 * centre: a background image, whether others may see the threads they liked, their language.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_follows')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('to_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_follows_pk', ['user_id', 'to_user_id'])
    .execute();
  // A user's fans, newest first.
  await db.schema
    .createIndex('user_follows_to_user_idx')
    .on('user_follows')
    .columns(['to_user_id', 'created_at'])
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('background', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('likes_public', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('locale', 'varchar(8)', (c) => c.notNull().defaultTo(sql`''`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('locale').execute();
  await db.schema.alterTable('users').dropColumn('likes_public').execute();
  await db.schema.alterTable('users').dropColumn('background').execute();
  await db.schema.dropTable('user_follows').execute();
}
