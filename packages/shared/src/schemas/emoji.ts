import { z } from 'zod';
import { LOCALES } from '../locale.js';
import { labeled } from './field-labels.js';

/**
 * Emoji are stored in the text as `:code:`, the family's way (Discuz! Q keeps `:weixiao:` in its posts), and shown
 * when the text is rendered:
 * - a site's image emoji (the `emoji` table, e.g. `:weixiao:` → `emoji/qq/weixiao.gif`) as `<img class="emoji">`;
 * - a Unicode emoji by its GitHub shortcode (`:smile:` 😄, `:+1:` 👍, `:heart:` ❤️; the set of emojibase-data's
 *   `shortcodes/github.json`) as the character itself.
 * A code known as neither stays text, as does one inside code or a link. An image emoji wins when both know a code.
 */

/**
 * Every `:code:` in a text (letters, digits and `_+-`: the family's codes are pinyin, GitHub's add `+1`), with the
 * code's name (no colons) and where it starts; a colon ends one code only.
 */
export function findEmojiCodes(text: string): Array<{ name: string; index: number; length: number }> {
  const found: Array<{ name: string; index: number; length: number }> = [];
  const pattern = /:([A-Za-z0-9_+-]{1,50}):/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    found.push({ name: match[1]!, index: match.index, length: match[0].length });
    // `:a:b:` holds `:a:` and, if `:a:` is not an emoji, `:b:`: let the caller's next try start at the closing colon.
    pattern.lastIndex = match.index + match[0].length - 1;
  }
  return found;
}

/**
 * Splits a text into its plain parts and the emoji that `lookup` knows (by code name, no colons). Codes that
 * overlap a known one (`:a:b:` where `:a:` is known) are text. For plain-text places (private messages).
 */
export function splitEmoji<T>(text: string, lookup: (name: string) => T | undefined): Array<string | T> {
  const parts: Array<string | T> = [];
  let at = 0;
  for (const code of findEmojiCodes(text)) {
    if (code.index < at) continue;
    const found = lookup(code.name);
    if (found === undefined) continue;
    if (code.index > at) parts.push(text.slice(at, code.index));
    parts.push(found);
    at = code.index + code.length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** GET /api/v3/emoji: one of the site's image emoji, the family's shape. */
export interface ImageEmoji {
  id: number;
  category: string;
  /** An absolute http(s) address or a path on this site (starting with `/`). */
  url: string;
  /** With its colons, as stored in the text: `:weixiao:`. */
  code: string;
  order: number;
}

/** GET /api/v3/emoji.unicode?locale=zh|en (the page's language when absent). */
export const emojiUnicodeQuery = z.object({
  locale: labeled(z.enum(LOCALES), { zh: '语言', en: 'Language' }).optional(),
});

/** One Unicode emoji of the picker. */
export interface UnicodeEmoji {
  /** The first GitHub shortcode, without colons: `smile`. */
  code: string;
  char: string;
  /** Its name in the asked language (CLDR's, through emojibase-data). */
  name: string;
}

/**
 * The Unicode emoji a picker offers, by category (emojibase's groups, in their order, without the skin-tone
 * components): `smileys-emotion`, `people-body`, `animals-nature`, `food-drink`, `travel-places`, `activities`,
 * `objects`, `symbols`, `flags`. `aliases` maps every other shortcode to its first (`thumbsup` → `+1`), so a
 * renderer knows every code the server shows as an emoji.
 */
export interface UnicodeEmojiSet {
  locale: (typeof LOCALES)[number];
  shortcodes: 'github';
  categories: Array<{ key: string; emoji: UnicodeEmoji[] }>;
  aliases: Record<string, string>;
}
