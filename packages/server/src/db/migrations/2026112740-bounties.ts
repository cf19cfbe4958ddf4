import { sql, type Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Bounty questions (modules/bounty, part 107; the family's `thread_rewards`): one row per thread with its offer, what
 * is left of it and its deadline (`settled_at` once what was left went back to the author), and one row per award
 * (the family keeps those only in the ledger). Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('thread_bounties'))
    .addColumn('thread_id', 'integer', (c) => c.notNull().unique().references('threads.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('remaining_cents', 'bigint', (c) => c.notNull().check(sql`remaining_cents >= 0`))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('settled_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await idColumn(db, db.schema.createTable('bounty_awards'))
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('threads.id').onDelete('cascade'))
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bounty_awards_thread').on('bounty_awards').columns(['thread_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bounty_awards').execute();
  await db.schema.dropTable('thread_bounties').execute();
}
