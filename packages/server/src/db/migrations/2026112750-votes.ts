import type { Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Votes (part 109, modules/votes), the family's thread_votes, thread_vote_subitems and thread_vote_users: a thread's
 * vote, its options with their counts, and one row per option a member chose. A member's ballot numbers its choices
 * from 0 (`position`); the unique index on (vote, user, position) lets only one ballot per member and vote in, even
 * when two arrive at once (both carry a position 0). Rows go when their thread, vote or option goes.
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('thread_votes'))
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('vote_title', 'varchar(255)', (c) => c.notNull())
    .addColumn('choice_type', 'integer', (c) => c.notNull())
    .addColumn('vote_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expired_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('thread_votes_thread_id').on('thread_votes').column('thread_id').execute();

  await idColumn(db, db.schema.createTable('thread_vote_subitems'))
    .addColumn('thread_vote_id', 'integer', (c) => c.notNull().references('thread_votes.id').onDelete('cascade'))
    .addColumn('content', 'varchar(255)', (c) => c.notNull())
    .addColumn('vote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('thread_vote_subitems_vote_id')
    .on('thread_vote_subitems')
    .column('thread_vote_id')
    .execute();

  await idColumn(db, db.schema.createTable('thread_vote_users'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('thread_vote_id', 'integer', (c) => c.notNull().references('thread_votes.id').onDelete('cascade'))
    .addColumn('thread_vote_subitem_id', 'integer', (c) =>
      c.notNull().references('thread_vote_subitems.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('thread_vote_users_ballot_unique')
    .on('thread_vote_users')
    .columns(['thread_vote_id', 'user_id', 'position'])
    .unique()
    .execute();
  await db.schema
    .createIndex('thread_vote_users_user_subitem_unique')
    .on('thread_vote_users')
    .columns(['user_id', 'thread_vote_subitem_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('thread_vote_users_subitem_id')
    .on('thread_vote_users')
    .column('thread_vote_subitem_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('thread_vote_users').execute();
  await db.schema.dropTable('thread_vote_subitems').execute();
  await db.schema.dropTable('thread_votes').execute();
}
