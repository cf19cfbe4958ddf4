import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { indexedBody } from '../content/index.js';
import { plainText } from '../content/index.js';
import { cjkGrams, gramsColumn, like } from './search-terms.js';

/**
 * The thread search index (`thread_search`: the title and the plain text of the first post, only the free part of
 * a paid thread's), kept in step with the thread by the search subscriber (search.subscriber.ts) after each change.
 * How terms are matched: search-terms.ts; how a search uses it: search.service.ts.
 */

/** 1 when the title holds every term (those threads rank first), else 0. */
export function titleHit(dialect: DialectName, terms: string[]): RawBuilder<number> {
  const all = sql.join(
    terms.map((t) => like(dialect, 'threads.title', t)),
    sql` and `,
  );
  return sql<number>`case when ${all} then 1 else 0 end`;
}

/**
 * Brings a thread's entry in line with the thread as it now is: its title and the indexed part of its first post
 * while it is not deleted (drafts and held threads too: the thread list filters those), none otherwise.
 */
export async function syncThreadIndex(db: Kysely<DB>, dialect: DialectName, threadId: number): Promise<void> {
  const thread = await db
    .selectFrom('threads')
    .leftJoin('posts', 'posts.id', 'threads.firstPostId')
    .select([
      'threads.title',
      'threads.deletedAt',
      'threads.priceCents',
      'threads.freeWordsFraction',
      'posts.contentHtml',
    ])
    .where('threads.id', '=', threadId)
    .executeTakeFirst();
  if (!thread || thread.deletedAt !== null) {
    await removeThreadIndex(db, dialect, threadId);
    return;
  }
  const body = indexedBody(plainText(thread.contentHtml ?? ''), thread);
  await writeThreadIndex(db, dialect, threadId, thread.title, body);
}

/** Writes (or rewrites) a thread's entry. */
export async function writeThreadIndex(
  db: Kysely<DB>,
  dialect: DialectName,
  threadId: number,
  title: string,
  content: string,
): Promise<void> {
  await removeThreadIndex(db, dialect, threadId);
  await insertThreadIndex(db, dialect, [{ threadId, title, content }]);
}

export interface ThreadIndexEntry {
  threadId: number;
  title: string;
  /** The plain text of the first post. */
  content: string;
}

/** Adds entries for threads that have none (in one statement per thousand: the demo seeder writes many). */
export async function insertThreadIndex(
  db: Kysely<DB>,
  dialect: DialectName,
  entries: ThreadIndexEntry[],
): Promise<void> {
  for (let i = 0; i < entries.length; i += 1000) {
    const chunk = entries.slice(i, i + 1000);
    if (dialect === 'postgres') {
      const rows = chunk.map((e) => sql`(${e.threadId}, ${e.title.toLowerCase()}, ${e.content.toLowerCase()})`);
      await sql`insert into thread_search (thread_id, title, content) values ${sql.join(rows)}`.execute(db);
      const grams: string[] = [];
      const ids: number[] = [];
      for (const e of chunk) {
        for (const g of cjkGrams(e.title, e.content)) {
          grams.push(g);
          ids.push(e.threadId);
        }
      }
      if (grams.length > 0) {
        await sql`insert into thread_search_grams (gram, thread_id)
          select * from unnest(${sql.val(grams)}::text[], ${sql.val(ids)}::integer[])`.execute(db);
      }
      continue;
    }
    const rows = chunk.map((e) => {
      const grams = cjkGrams(e.title, e.content);
      return sql`(${e.threadId}, ${e.title}, ${e.content}, ${gramsColumn(grams)})`;
    });
    await sql`insert into thread_search (rowid, title, content, grams) values ${sql.join(rows)}`.execute(db);
  }
}

/** Removes a thread's entry (deleted threads are never found). */
export async function removeThreadIndex(db: Kysely<DB>, dialect: DialectName, threadId: number): Promise<void> {
  if (dialect === 'postgres') {
    await db.deleteFrom('threadSearch').where('threadId', '=', threadId).execute();
    await sql`delete from thread_search_grams where thread_id = ${threadId}`.execute(db);
    return;
  }
  await sql`delete from thread_search where rowid = ${threadId}`.execute(db);
}

/** Whether a thread has an index entry (for tests and repairs). */
export async function isIndexed(db: Kysely<DB>, dialect: DialectName, threadId: number): Promise<boolean> {
  const column = dialect === 'postgres' ? sql.ref('thread_id') : sql.raw('rowid');
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from thread_search where ${column} = ${threadId}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}
