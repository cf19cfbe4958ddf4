import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { rowLimit } from '../../db/row-limit.js';

/**
 * How a keyword is matched against a search index: the thread index (`thread_search`: the title and the plain text
 * of the first post) and the reply index (`post_search`: the plain text of each visible reply and comment). A
 * keyword is split on spaces into at most five terms, and an entry must hold every term.
 *
 * SQLite: FTS5 tables with the trigram tokenizer; a term of three or more characters is a phrase query (`"term"`),
 * which matches the term anywhere, inside an unspaced Chinese sentence too.
 * PostgreSQL: LIKE over the lower-cased text, served by pg_trgm GIN indexes.
 *
 * Terms of one or two characters have no trigram. When they are Chinese (or Japanese or Korean) they are looked up
 * in `grams`: every character and every pair of adjacent characters of the CJK runs of the text, so "缓存" is found
 * inside "加了一层缓存以后" through the index, exactly as a substring search would find it. SQLite keeps the grams in
 * a column of the same FTS5 table, space-separated, where the phrase " 缓存 " (spaces included: two trigrams) matches
 * the token; PostgreSQL keeps them in a narrow table of (gram, id) rows whose primary key answers "the newest entries
 * holding this gram" from the index alone. Other short terms (`js`, `c#`) fall back to LIKE over the text, which
 * reads the table.
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

export const like = (dialect: DialectName, column: string, term: string): RawBuilder<SqlBool> =>
  dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} ilike ${containsPattern(term)} escape '\\'`
    : sql<SqlBool>`${sql.ref(column)} like ${containsPattern(term)} escape '\\'`;

/**
 * PostgreSQL keeps the indexes lower-cased, so that their matching is LIKE, a byte comparison, rather than ILIKE,
 * which lower-cases every row it reads (several times slower on Chinese text, whether the rows come from the trigram
 * index or from the newest-first scan that a common word gets).
 */
const indexLike = (dialect: DialectName, column: string, term: string): RawBuilder<SqlBool> =>
  dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} like ${containsPattern(term.toLowerCase())} escape '\\'`
    : like(dialect, column, term);

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

/** The grams column of an FTS5 entry: the grams space-separated, with a space at each end. */
export const gramsColumn = (grams: string[]): string => (grams.length > 0 ? ` ${grams.join(' ')} ` : '');

/** A short term the grams can answer: one or two characters, all CJK. */
const isGramTerm = (term: string) => codePointLength(term) < 3 && [...term].every((c) => CJK.test(c));

/** One search index, as both databases hold it. */
export interface SearchIndex {
  /** The FTS5 table on SQLite (its rowid is the key); the lower-cased text table on PostgreSQL. */
  table: 'thread_search' | 'post_search';
  /** The text columns (the grams column, on SQLite, comes on top). */
  columns: readonly string[];
  /** PostgreSQL: the key column of the text and gram tables. */
  key: 'thread_id' | 'post_id';
  /** PostgreSQL: the gram table. */
  grams: 'thread_search_grams' | 'post_search_grams';
}

export const THREAD_INDEX: SearchIndex = {
  table: 'thread_search',
  columns: ['title', 'content'],
  key: 'thread_id',
  grams: 'thread_search_grams',
};

export const REPLY_INDEX: SearchIndex = {
  table: 'post_search',
  columns: ['content'],
  key: 'post_id',
  grams: 'post_search_grams',
};

/** `select <key> as id from <index> where …every term… order by <key> desc limit max`: the newest `max` entries. */
export function matchingIds(
  dialect: DialectName,
  index: SearchIndex,
  terms: string[],
  max: number,
): RawBuilder<unknown> {
  const grams = terms.filter(isGramTerm);
  const others = terms.filter((t) => !isGramTerm(t));
  const table = sql.table(index.table);
  const anyColumn = (t: string, column: (c: string) => string) =>
    sql`(${sql.join(
      index.columns.map((c) => indexLike(dialect, column(c), t)),
      sql` or `,
    )})`;
  if (dialect === 'postgres') {
    const key = sql.ref(`${index.table}.${index.key}`);
    const each = others.map((t) => anyColumn(t, (c) => `${index.table}.${c}`));
    if (grams.length === 0) {
      return sql`select ${key} as id from ${table} where ${sql.join(each, sql` and `)} order by ${key} desc limit ${rowLimit(max)}`;
    }
    // The first gram drives, newest first along its primary key; every other term filters.
    const [first, ...rest] = grams;
    const gramKey = sql.ref(`g.${index.key}`);
    const filters = [
      sql`g.gram = ${first}`,
      ...rest.map(
        (t) =>
          sql`exists (select 1 from ${sql.table(index.grams)} o where o.gram = ${t} and ${sql.ref(`o.${index.key}`)} = ${gramKey})`,
      ),
      ...(each.length > 0
        ? [sql`exists (select 1 from ${table} where ${key} = ${gramKey} and ${sql.join(each, sql` and `)})`]
        : []),
    ];
    return sql`select ${gramKey} as id from ${sql.table(index.grams)} g where ${sql.join(filters, sql` and `)} order by ${gramKey} desc limit ${rowLimit(max)}`;
  }
  const long = others.filter((t) => codePointLength(t) >= 3);
  const short = others.filter((t) => codePointLength(t) < 3);
  const columns = `{${index.columns.join(' ')}}`;
  const phrases = [
    ...long.map((t) => `${columns} : ${ftsPhrase(t)}`),
    ...grams.map((t) => `grams : ${ftsPhrase(` ${t} `)}`),
  ];
  const conditions: RawBuilder<unknown>[] = [];
  if (phrases.length > 0) conditions.push(sql`${table} match ${phrases.join(' AND ')}`);
  for (const t of short) conditions.push(anyColumn(t, (c) => `${index.table}.${c}`));
  const rowid = sql.raw(`${index.table}.rowid`);
  return sql`select ${rowid} as id from ${table} where ${sql.join(conditions, sql` and `)} order by ${rowid} desc limit ${rowLimit(max)}`;
}
