import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface ImageEmojiRow {
  id: number;
  category: string;
  url: string;
  code: string;
  order: number;
}

/** The site's image emoji, in the order a picker shows them. */
export async function listImageEmojiRows(db: Kysely<DB>): Promise<ImageEmojiRow[]> {
  return db
    .selectFrom('emoji')
    .select(['id', 'category', 'url', 'code', 'order'])
    .orderBy('category')
    .orderBy('order')
    .orderBy('id')
    .execute();
}

/** The image emoji with these codes (with their colons). */
export async function findImageEmojiRows(db: Kysely<DB>, codes: readonly string[]): Promise<ImageEmojiRow[]> {
  if (codes.length === 0) return [];
  return db
    .selectFrom('emoji')
    .select(['id', 'category', 'url', 'code', 'order'])
    .where('code', 'in', [...codes])
    .orderBy('id')
    .execute();
}
