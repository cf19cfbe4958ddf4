import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { DB } from '../../db/schema.js';

/**
 * The thread search index (`thread_search`: the title and the plain text of the first post) and the conditions that
 * query it. A keyword is split on spaces into at most five terms, and a thread must hold every term.
 *
 * SQLite: an FTS5 table with the trigram tokenizer; a term of three or more characters is a phrase query (`"term"`),
 * which matches the term anywhere, inside an unspaced Chinese sentence too. Terms of one or two characters have no
 * trigram, so they fall back to LIKE over the same table.
 * PostgreSQL: ILIKE over the title and the text, served by pg_trgm GIN indexes (for terms of three or more
 * characters; shorter ones scan).
 */

const TERMS_MAX = 5;

export function parseKeywords(keyword: string): string[] {
  const terms = keyword
    .split(/\s+/u)
    .map((t) => t.trim())
    .filter((t) => t !== '');
  return [...new Set(terms.map((t) => t.toLowerCase()))].slice(0, TERMS_MAX);
}

/** `%term%` with LIKE's wildcards (and the escape character) in the term escaped by a backslash. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const codePointLength = (s: string) => [...s].length;

/** An FTS5 phrase: double quotes around, inner double quotes doubled. */
const ftsPhrase = (term: string) => `"${term.replace(/"/g, '""')}"`;

const like = (dialect: DialectName, column: string, term: string): RawBuilder<SqlBool> =>
  dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} ilike ${containsPattern(term)} escape '\\'`
    : sql<SqlBool>`${sql.ref(column)} like ${containsPattern(term)} escape '\\'`;

/** `threads.id in (…the newest `max` threads whose index holds every term…)`. */
export function threadMatchCondition(dialect: DialectName, terms: string[], max: number): RawBuilder<SqlBool> {
  if (dialect === 'postgres') {
    const each = terms.map(
      (t) => sql`(${like(dialect, 'thread_search.title', t)} or ${like(dialect, 'thread_search.content', t)})`,
    );
    return sql<SqlBool>`threads.id in (select thread_search.thread_id from thread_search where ${sql.join(each, sql` and `)} order by thread_search.thread_id desc limit ${max})`;
  }
  const long = terms.filter((t) => codePointLength(t) >= 3);
  const short = terms.filter((t) => codePointLength(t) < 3);
  const conditions: RawBuilder<unknown>[] = [];
  if (long.length > 0) conditions.push(sql`thread_search match ${long.map(ftsPhrase).join(' AND ')}`);
  for (const t of short) {
    conditions.push(sql`(${like(dialect, 'thread_search.title', t)} or ${like(dialect, 'thread_search.content', t)})`);
  }
  return sql<SqlBool>`threads.id in (select thread_search.rowid from thread_search where ${sql.join(conditions, sql` and `)} order by thread_search.rowid desc limit ${max})`;
}

/** 1 when the title holds every term (those threads rank first), else 0. */
export function titleHit(dialect: DialectName, terms: string[]): RawBuilder<number> {
  const all = sql.join(
    terms.map((t) => like(dialect, 'threads.title', t)),
    sql` and `,
  );
  return sql<number>`case when ${all} then 1 else 0 end`;
}

/** Writes (or rewrites) a thread's entry. Called in the transaction that changes the thread. */
export async function writeThreadIndex(
  db: Kysely<DB>,
  dialect: DialectName,
  threadId: number,
  title: string,
  content: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await db
      .insertInto('threadSearch')
      .values({ threadId, title, content })
      .onConflict((oc) => oc.column('threadId').doUpdateSet({ title, content }))
      .execute();
    return;
  }
  await sql`delete from thread_search where rowid = ${threadId}`.execute(db);
  await sql`insert into thread_search (rowid, title, content) values (${threadId}, ${title}, ${content})`.execute(db);
}

/** Removes a thread's entry (deleted threads are never found). */
export async function removeThreadIndex(db: Kysely<DB>, dialect: DialectName, threadId: number): Promise<void> {
  if (dialect === 'postgres') {
    await db.deleteFrom('threadSearch').where('threadId', '=', threadId).execute();
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
