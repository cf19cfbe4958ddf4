import type { Kysely } from 'kysely';

/*
 * The hot list ranks the threads viewed in the last days by their views. Its ranking sums `views` per thread over
 * the days since then: with (day, thread_id, views) in one index that is a range read of the index alone, instead
 * of a visit to the table for each of the week's rows (or a scan of every day ever kept).
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('thread_views_daily_day_views_idx')
    .on('thread_views_daily')
    .columns(['day', 'thread_id', 'views'])
    .execute();
  await db.schema.dropIndex('thread_views_daily_day_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('thread_views_daily_day_idx').on('thread_views_daily').columns(['day']).execute();
  await db.schema.dropIndex('thread_views_daily_day_views_idx').execute();
}
