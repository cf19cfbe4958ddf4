import { findEmojiCodes, type ImageEmoji } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { findImageEmojiRows, listImageEmojiRows, type ImageEmojiRow } from './emoji.repository.js';

/** At most this many distinct codes of one text are looked up. */
const CODES_MAX = 200;

/**
 * Where an image emoji may point: an http(s) address or a path on this site. A bare path, as the family stores it
 * (`emoji/qq/weixiao.gif`, shipped in its `public/`), becomes one from the site's root. Anything else (another
 * scheme such as `javascript:` or `data:`, `//host`, quotes, spaces, `..`) is refused: such a row is not shown.
 */
export function safeEmojiUrl(url: string): string | null {
  const value = url.trim();
  if (!/^[A-Za-z0-9._~%/:?=&+@-]{1,255}$/.test(value) || value.includes('..') || value.startsWith('//')) return null;
  if (/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/|$)/i.test(value)) return value;
  if (value.includes(':')) return null;
  return value.startsWith('/') ? value : `/${value}`;
}

function present(row: ImageEmojiRow): ImageEmoji | null {
  const url = safeEmojiUrl(row.url);
  return url ? { id: row.id, category: row.category, url, code: row.code, order: row.order } : null;
}

/** The site's image emoji that can be shown (a row with an unsafe address is left out). */
export async function listImageEmoji(db: Kysely<DB>): Promise<ImageEmoji[]> {
  return (await listImageEmojiRows(db)).map(present).filter((e): e is ImageEmoji => e !== null);
}

/** The image emoji a text names, by code with its colons (`:weixiao:` → its safe address). */
export async function imageEmojiIn(db: Kysely<DB>, text: string): Promise<Map<string, string>> {
  const codes = [...new Set(findEmojiCodes(text).map((c) => `:${c.name}:`))].slice(0, CODES_MAX);
  const map = new Map<string, string>();
  for (const row of await findImageEmojiRows(db, codes)) {
    const shown = present(row);
    if (shown && !map.has(shown.code)) map.set(shown.code, shown.url);
  }
  return map;
}
