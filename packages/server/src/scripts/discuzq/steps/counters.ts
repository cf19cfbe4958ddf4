import { sql } from 'kysely';
import { inTransaction, type FinalStep } from '../steps.js';

/*
 * Counters are computed from the imported rows, never copied: the old site's may have drifted, and ours count by
 * our own rules (a thread's replies are its visible, non-comment replies; a member's posts their visible replies).
 * Plain correlated subqueries, the same on SQLite and PostgreSQL.
 */

const VISIBLE_THREAD = sql`t.deleted_at is null and t.is_draft = 0 and t.is_approved = 1`;
const VISIBLE_POST = sql`p.deleted_at is null and p.is_approved = 1`;

export const countersStep: FinalStep = {
  kind: 'final',
  name: 'counters',
  async run(db) {
    await inTransaction(db, async (trx) => {
      await sql`update posts set
        like_count = (select count(*) from post_likes l where l.post_id = posts.id),
        reply_count = (select count(*) from posts p where p.reply_post_id = posts.id and p.is_comment = 1 and ${VISIBLE_POST})`.execute(
        trx,
      );
      await sql`update threads set
        post_count = (select count(*) from posts p where p.thread_id = threads.id and p.is_first = 0 and p.is_comment = 0 and ${VISIBLE_POST}),
        like_count = coalesce((select p.like_count from posts p where p.id = threads.first_post_id), 0),
        favorite_count = (select count(*) from thread_favorites f where f.thread_id = threads.id),
        last_posted_at = coalesce((select max(p.created_at) from posts p where p.thread_id = threads.id and p.is_first = 0 and ${VISIBLE_POST}), threads.created_at)`.execute(
        trx,
      );
      await sql`update categories set
        thread_count = (select count(*) from threads t where t.category_id = categories.id and ${VISIBLE_THREAD})`.execute(
        trx,
      );
      await sql`update users set
        thread_count = (select count(*) from threads t where t.user_id = users.id and ${VISIBLE_THREAD}),
        post_count = (select count(*) from posts p where p.user_id = users.id and p.is_first = 0 and ${VISIBLE_POST}),
        liked_count = (select count(*) from post_likes l join posts p on p.id = l.post_id where p.user_id = users.id),
        follow_count = (select count(*) from user_follows f where f.user_id = users.id),
        fans_count = (select count(*) from user_follows f where f.to_user_id = users.id)`.execute(trx);
      await sql`update topics set
        thread_count = (select count(*) from thread_topic tt join threads t on t.id = tt.thread_id where tt.topic_id = topics.id and ${VISIBLE_THREAD}),
        view_count = coalesce((select sum(t.view_count) from thread_topic tt join threads t on t.id = tt.thread_id where tt.topic_id = topics.id and ${VISIBLE_THREAD}), 0)`.execute(
        trx,
      );
    });
  },
};
