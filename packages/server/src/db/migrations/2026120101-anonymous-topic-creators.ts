import { sql, type Kysely } from 'kysely';

/*
 * Topics first named by an anonymous thread were recorded as made by its real author, and topics.list answers a
 * topic's maker to everyone: whoever followed an anonymous thread's topic link learned who wrote it. New topics of an
 * anonymous thread's first post are now the anonymous user's (id 0, modules/topics topicsNamedIn); this gives the
 * topics made before to the anonymous user too, wherever their maker wrote an anonymous thread that links them (the
 * first post's links are always in thread_topic). A topic the author also named elsewhere loses its maker's name:
 * hiding one too many is the safe side.
 *
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update topics set user_id = 0
    where exists (
      select 1 from thread_topic tt join threads t on t.id = tt.thread_id
      where tt.topic_id = topics.id and t.is_anonymous = 1 and t.user_id = topics.user_id
    )`.execute(db);
}

/** Who made those topics is not kept: nothing to undo. */
export async function down(): Promise<void> {}
