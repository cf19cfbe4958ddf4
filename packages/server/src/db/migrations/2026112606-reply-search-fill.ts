import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-helpers.js';

/*
 * Indexes the replies and comments that existed before the reply search (2026112605): every post that is not a
 * first post, approved and not deleted, with the plain text of its HTML and, for short Chinese words, its CJK grams.
 * Idempotent (it empties the tables first). The text and grams are made by copies of plainText() and cjkGrams() as
 * they were when this was written: a migration must not change with the code (docs/migrations.md).
 * Immutable once on main: later changes go in a new migration.
 */

const BATCH = 1000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function plainText(html: string): string {
  return html
    .replace(/<img\b[^>]*>/gi, ' ')
    .replace(/<\/(p|h[1-6]|li|blockquote|pre|tr|td|th)>|<br\s*\/?>|<hr\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
      if (entity[0] === '#') {
        const hex = entity[1] === 'x' || entity[1] === 'X';
        const code = hex ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[entity.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

function cjkGrams(text: string): string[] {
  const grams = new Set<string>();
  for (const run of text.toLowerCase().match(CJK_RUNS) ?? []) {
    const chars = [...run];
    for (let i = 0; i < chars.length; i += 1) {
      grams.add(chars[i]!);
      if (i + 1 < chars.length) grams.add(chars[i]! + chars[i + 1]!);
    }
  }
  return [...grams];
}

interface PostRow {
  id: number;
  html: string;
}

async function writeBatch(db: Kysely<unknown>, postgres: boolean, posts: PostRow[]): Promise<void> {
  const entries = posts.map((p) => ({ id: p.id, text: plainText(p.html) }));
  if (postgres) {
    await sql`insert into post_search (post_id, content)
      select * from unnest(${sql.val(entries.map((e) => e.id))}::integer[], ${sql.val(entries.map((e) => e.text.toLowerCase()))}::text[])`.execute(
      db,
    );
    const grams: string[] = [];
    const ids: number[] = [];
    for (const e of entries) {
      for (const g of cjkGrams(e.text)) {
        grams.push(g);
        ids.push(e.id);
      }
    }
    if (grams.length > 0) {
      await sql`insert into post_search_grams (gram, post_id)
        select * from unnest(${sql.val(grams)}::text[], ${sql.val(ids)}::integer[])`.execute(db);
    }
    return;
  }
  const rows = entries.map((e) => {
    const grams = cjkGrams(e.text);
    return sql`(${e.id}, ${e.text}, ${grams.length > 0 ? ` ${grams.join(' ')} ` : ''})`;
  });
  await sql`insert into post_search (rowid, content, grams) values ${sql.join(rows)}`.execute(db);
}

async function fill(db: Kysely<unknown>, postgres: boolean): Promise<void> {
  if (postgres) await sql`delete from post_search_grams`.execute(db);
  await sql`delete from post_search`.execute(db);
  // Along the primary key, a batch at a time, so that a forum of millions of posts is never held in memory.
  for (let after = 0; ;) {
    const { rows } = await sql<PostRow>`select id, content_html as html from posts
      where id > ${after} and is_first = 0 and is_approved = 1 and deleted_at is null
      order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    await writeBatch(db, postgres, rows);
    after = Number(rows[rows.length - 1]!.id);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  // PostgreSQL runs the migrations in one transaction already; on SQLite one transaction makes it one write.
  if (postgres) await fill(db, true);
  else await db.transaction().execute((trx) => fill(trx, false));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`delete from post_search_grams`.execute(db);
  await sql`delete from post_search`.execute(db);
}
