import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { DB } from '../../db/schema.js';

/**
 * The thread search index (`thread_search`: the title and the plain text of the first post) and the conditions that
 * query it. A keyword is split on spaces into at most five terms, and a thread must hold every term.
 *
 * SQLite: an FTS5 table with the trigram tokenizer; a term of three or more characters is a phrase query (`"term"`),
 * which matches the term anywhere, inside an unspaced Chinese sentence too.
 * PostgreSQL: LIKE over the lower-cased title and text, served by pg_trgm GIN indexes.
 *
 * Terms of one or two characters have no trigram. When they are Chinese (or Japanese or Korean) they are looked up
 * in `grams`: every character and every pair of adjacent characters of the CJK runs of the title and the text, so
 * "缓存" is found inside "加了一层缓存以后" through the index, exactly as a substring search would find it. SQLite
 * keeps the grams in a third column of the same FTS5 table, space-separated, where the phrase " 缓存 " (spaces
 * included: two trigrams) matches the token; PostgreSQL keeps them in a narrow table of (gram, thread_id) rows whose
 * primary key answers "the newest threads holding this gram" from the index alone. Other short terms (`js`, `c#`)
 * fall back to LIKE over the text, which reads the table.
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

/**
 * PostgreSQL keeps the index lower-cased, so that its matching is LIKE, a byte comparison, rather than ILIKE, which
 * lower-cases every row it reads (several times slower on Chinese text, whether the rows come from the trigram
 * index or from the newest-first scan that a common word gets).
 */
const indexLike = (dialect: DialectName, column: string, term: string): RawBuilder<SqlBool> =>
  dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} like ${containsPattern(term.toLowerCase())} escape '\\'`
    : like(dialect, column, term);

const like = (dialect: DialectName, column: string, term: string): RawBuilder<SqlBool> =>
  dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} ilike ${containsPattern(term)} escape '\\'`
    : sql<SqlBool>`${sql.ref(column)} like ${containsPattern(term)} escape '\\'`;

/** Han, kana and Hangul: scripts written without spaces, where a word of one or two characters is common. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** Every CJK character and every pair of adjacent CJK characters in the texts, each once. */
export function cjkGrams(...texts: string[]): string[] {
  const grams = new Set<string>();
  for (const text of texts) {
    for (const run of text.toLowerCase().match(CJK_RUNS) ?? []) {
      const chars = [...run];
      for (let i = 0; i < chars.length; i += 1) {
        grams.add(chars[i]!);
        if (i + 1 < chars.length) grams.add(chars[i]! + chars[i + 1]!);
      }
    }
  }
  return [...grams];
}

/** A short term the grams can answer: one or two characters, all CJK. */
const isGramTerm = (term: string) => codePointLength(term) < 3 && [...term].every((c) => CJK.test(c));

/** `threads.id in (…the newest `max` threads whose index holds every term…)`. */
export function threadMatchCondition(dialect: DialectName, terms: string[], max: number): RawBuilder<SqlBool> {
  const grams = terms.filter(isGramTerm);
  const others = terms.filter((t) => !isGramTerm(t));
  if (dialect === 'postgres') {
    const each = others.map(
      (t) =>
        sql`(${indexLike(dialect, 'thread_search.title', t)} or ${indexLike(dialect, 'thread_search.content', t)})`,
    );
    if (grams.length === 0) {
      return sql<SqlBool>`threads.id in (select thread_search.thread_id from thread_search where ${sql.join(each, sql` and `)} order by thread_search.thread_id desc limit ${max})`;
    }
    // The first gram drives, newest first along its primary key; every other term filters.
    const [first, ...rest] = grams;
    const filters = [
      sql`g.gram = ${first}`,
      ...rest.map(
        (t) => sql`exists (select 1 from thread_search_grams o where o.gram = ${t} and o.thread_id = g.thread_id)`,
      ),
      ...(each.length > 0
        ? [
            sql`exists (select 1 from thread_search where thread_search.thread_id = g.thread_id and ${sql.join(each, sql` and `)})`,
          ]
        : []),
    ];
    return sql<SqlBool>`threads.id in (select g.thread_id from thread_search_grams g where ${sql.join(filters, sql` and `)} order by g.thread_id desc limit ${max})`;
  }
  const long = others.filter((t) => codePointLength(t) >= 3);
  const short = others.filter((t) => codePointLength(t) < 3);
  const phrases = [
    ...long.map((t) => `{title content} : ${ftsPhrase(t)}`),
    ...grams.map((t) => `grams : ${ftsPhrase(` ${t} `)}`),
  ];
  const conditions: RawBuilder<unknown>[] = [];
  if (phrases.length > 0) conditions.push(sql`thread_search match ${phrases.join(' AND ')}`);
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
      return sql`(${e.threadId}, ${e.title}, ${e.content}, ${grams.length > 0 ? ` ${grams.join(' ')} ` : ''})`;
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
