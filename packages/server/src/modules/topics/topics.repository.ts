import { topicKey } from '@luntan/shared';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { now } from '../../core/time.js';

/** All of the topics module's SQL: topics, thread_topic and their counters. */

export interface TopicRow {
  id: number;
  userId: number;
  content: string;
  threadCount: number;
  viewCount: number;
  recommended: number;
  recommendedAt: string | null;
  nickname: string | null;
}

/**
 * The topics of these names, made when missing (first writer's spelling and id kept), by folded name. Two posts
 * naming a new topic at once both find the one row (the unique folded name; the second insert does nothing).
 */
/** The ids of the topics with these folded names that exist. */
export async function findTopicIds(db: Kysely<DB>, keys: string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db.selectFrom('topics').select(['id', 'contentKey']).where('contentKey', 'in', keys).execute();
  return new Map(rows.map((r) => [r.contentKey, r.id]));
}

export async function ensureTopics(db: Kysely<DB>, names: string[], userId: number): Promise<Map<string, number>> {
  const byKey = new Map(names.map((name) => [topicKey(name), name]));
  const found = new Map<string, number>();
  if (byKey.size === 0) return found;
  const keys = [...byKey.keys()];
  const read = async () => {
    const rows = await db.selectFrom('topics').select(['id', 'contentKey']).where('contentKey', 'in', keys).execute();
    for (const r of rows) found.set(r.contentKey, r.id);
  };
  await read();
  const missing = keys.filter((key) => !found.has(key));
  if (missing.length === 0) return found;
  const at = now();
  await db
    .insertInto('topics')
    .values(
      missing.map((key) => ({
        userId,
        content: byKey.get(key)!,
        contentKey: key,
        createdAt: at,
        updatedAt: at,
      })),
    )
    .onConflict((oc) => oc.column('contentKey').doNothing())
    .execute();
  await read();
  return found;
}

/** The topics a thread's posts link to: `<a class="topic" href="/topic/ID">` in their HTML (post-content.ts). */
const TOPIC_LINK = /<a class="topic" href="\/topic\/(\d{1,9})">/g;

/**
 * Brings a thread's thread_topic rows in line with the topic links of its first post and its visible replies, and
 * recounts the topics it touched (before or after) with the thread's state as it now is. Reads the current rows, so a
 * late or repeated event does no harm.
 */
export async function syncThreadTopics(trx: Kysely<DB>, threadId: number): Promise<void> {
  const thread = await trx
    .selectFrom('threads')
    .select(['id', 'firstPostId'])
    .where('id', '=', threadId)
    .executeTakeFirst();
  const before = (await trx.selectFrom('threadTopic').select('topicId').where('threadId', '=', threadId).execute()).map(
    (r) => r.topicId,
  );
  const linked = new Set<number>();
  if (thread) {
    const posts = await trx
      .selectFrom('posts')
      .select('contentHtml')
      .where('threadId', '=', threadId)
      .where((eb) => eb.or([eb('isFirst', '=', 1), eb.and([eb('deletedAt', 'is', null), eb('isApproved', '=', 1)])]))
      .where('contentHtml', 'like', '%class="topic"%')
      .execute();
    for (const post of posts) for (const m of post.contentHtml.matchAll(TOPIC_LINK)) linked.add(Number(m[1]));
  }
  const existing = linked.size
    ? (
        await trx
          .selectFrom('topics')
          .select('id')
          .where('id', 'in', [...linked])
          .execute()
      ).map((r) => r.id)
    : [];
  const gone = before.filter((id) => !linked.has(id));
  const added = existing.filter((id) => !before.includes(id));
  if (gone.length > 0) {
    await trx.deleteFrom('threadTopic').where('threadId', '=', threadId).where('topicId', 'in', gone).execute();
  }
  if (added.length > 0 && thread) {
    const at = now();
    await trx
      .insertInto('threadTopic')
      .values(added.map((topicId) => ({ threadId, topicId, createdAt: at })))
      .onConflict((oc) => oc.columns(['threadId', 'topicId']).doNothing())
      .execute();
  }
  await recountTopics(trx, [...new Set([...before, ...existing])]);
}

/** The visible threads of topics: approved, published, not deleted (what thread_count counts). */
function visibleLinks(db: Kysely<DB>, topicIds: number[]) {
  return db
    .selectFrom('threadTopic')
    .innerJoin('threads', 'threads.id', 'threadTopic.threadId')
    .where('threadTopic.topicId', 'in', topicIds)
    .where('threads.deletedAt', 'is', null)
    .where('threads.isDraft', '=', 0)
    .where('threads.isApproved', '=', 1);
}

/** Each topic's visible threads and their views, as they now are. */
export async function liveCounts(
  db: Kysely<DB>,
  topicIds: number[],
): Promise<Map<number, { threadCount: number; viewCount: number }>> {
  const counts = new Map(topicIds.map((id) => [id, { threadCount: 0, viewCount: 0 }]));
  if (topicIds.length === 0) return counts;
  const rows = await visibleLinks(db, topicIds)
    .select('threadTopic.topicId')
    .select((eb) => [
      eb.fn.countAll<number>().as('threadCount'),
      eb.fn.sum<number | string | null>('threads.viewCount').as('viewCount'),
    ])
    .groupBy('threadTopic.topicId')
    .execute();
  for (const r of rows) {
    counts.set(r.topicId, { threadCount: Number(r.threadCount), viewCount: Number(r.viewCount ?? 0) });
  }
  return counts;
}

export async function recountTopics(trx: Kysely<DB>, topicIds: number[]): Promise<void> {
  const counts = await liveCounts(trx, topicIds);
  for (const [id, c] of counts) {
    await trx
      .updateTable('topics')
      .set({ threadCount: c.threadCount, viewCount: c.viewCount })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('threadCount', '!=', c.threadCount), eb('viewCount', '!=', c.viewCount)]))
      .execute();
  }
}

export interface TopicListFilter {
  /** Folded; topics whose folded name holds it. */
  content?: string | undefined;
  hot?: boolean | undefined;
  topicId?: number | undefined;
  recommended?: boolean | undefined;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

function filtered(db: Kysely<DB>, f: TopicListFilter) {
  let q = db.selectFrom('topics');
  if (f.content) q = q.where(sql<boolean>`topics.content_key like ${`%${escapeLike(f.content)}%`} escape '\\'`);
  if (f.topicId !== undefined) q = q.where('topics.id', '=', f.topicId);
  if (f.recommended !== undefined) q = q.where('topics.recommended', '=', f.recommended ? 1 : 0);
  if (f.hot) q = q.where('topics.threadCount', '>', 0);
  return q;
}

export async function countTopics(db: Kysely<DB>, f: TopicListFilter): Promise<number> {
  const row = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listTopics(
  db: Kysely<DB>,
  f: TopicListFilter,
  offset: number,
  limit: number,
): Promise<TopicRow[]> {
  let q = filtered(db, f)
    .leftJoin('users', 'users.id', 'topics.userId')
    .select([
      'topics.id',
      'topics.userId',
      'topics.content',
      'topics.threadCount',
      'topics.viewCount',
      'topics.recommended',
      'topics.recommendedAt',
      'users.nickname',
    ]);
  if (f.hot) q = q.orderBy('topics.threadCount', 'desc').orderBy('topics.viewCount', 'desc');
  else if (f.content) {
    // The exact name first, then names that start with the words, then the rest, newest first.
    q = q.orderBy(
      sql`case when topics.content_key = ${f.content} then 0 when topics.content_key like ${`${escapeLike(f.content)}%`} escape '\\' then 1 else 2 end`,
    );
  }
  return q.orderBy('topics.id', 'desc').offset(offset).limit(limit).execute();
}

export async function topicExists(db: Kysely<DB>, key: string): Promise<boolean> {
  return (await db.selectFrom('topics').select('id').where('contentKey', '=', key).executeTakeFirst()) !== undefined;
}
