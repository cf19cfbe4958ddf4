import type { Kysely } from 'kysely';
import { isPostgres } from '../migration-helpers.js';

/*
 * Data only (the column came in 2026112797): each thread's old free character count becomes its share of the
 * body's plain text (capped at 1; 0 for an empty body), so every thread frees the same characters as before.
 * The length is counted by a copy of plainText() as it was when this was written: a migration must not change with
 * the code (docs/migrations.md). Idempotent: it derives the fraction from `free_words`, which nothing writes now.
 * Immutable once on main: later changes go in a new migration.
 */

const BATCH = 500;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function plainText(html: string): string {
  return html
    .replace(/<img src="[^"<>]*" alt="(:[A-Za-z0-9_+-]{1,50}:)" class="emoji">/g, '$1')
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

/** The fraction of a body of `length` characters that `count` characters are. */
export function fractionOf(count: number, length: number): number {
  return length > 0 ? Math.min(1, count / length) : 0;
}

interface Tables {
  threads: { id: number; first_post_id: number | null; free_words: number; free_words_fraction: number };
  posts: { id: number; content_html: string };
}

async function fill(trx: Kysely<Tables>): Promise<void> {
  // Along the primary key, a batch at a time. One-word aliases read the same with or without CamelCasePlugin.
  let after = 0;
  for (;;) {
    const rows = await trx
      .selectFrom('threads')
      .leftJoin('posts', 'posts.id', 'threads.first_post_id')
      .select(['threads.id as id', 'threads.free_words as count', 'posts.content_html as html'])
      .where('threads.free_words', '>', 0)
      .where('threads.id', '>', after)
      .orderBy('threads.id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      const length = [...plainText(row.html ?? '')].length;
      await trx
        .updateTable('threads')
        .set({ free_words_fraction: fractionOf(row.count, length) })
        .where('id', '=', row.id)
        .execute();
    }
    after = Number(rows[rows.length - 1]!.id);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const trx = db as Kysely<Tables>;
  // PostgreSQL runs the migrations in one transaction already; on SQLite one transaction makes it one write.
  if (isPostgres(db)) await fill(trx);
  else await trx.transaction().execute((t) => fill(t));
}

export async function down(): Promise<void> {
  // The column's values go with the column (2026112797's down); free_words was never changed.
}
