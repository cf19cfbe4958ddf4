/** The picker's key for one of the site's image categories. */
export const emojiCategoryKey = (category: string): string => `site:${category}`;

/** The Unicode groups the catalogue names (emoji.categories.<key>). */
export const UNICODE_GROUPS = [
  'smileys-emotion',
  'people-body',
  'animals-nature',
  'food-drink',
  'travel-places',
  'activities',
  'objects',
  'symbols',
  'flags',
] as const;
export type UnicodeGroup = (typeof UNICODE_GROUPS)[number];

export function isUnicodeGroup(key: string): key is UnicodeGroup {
  return (UNICODE_GROUPS as readonly string[]).includes(key);
}

const RECENT_KEY = 'luntan.emoji.recent';
const RECENT_MAX = 24;

/** The codes picked lately, newest first (this browser's localStorage). */
export function readRecentEmoji(): string[] {
  try {
    const raw = typeof window === 'undefined' ? null : window.localStorage.getItem(RECENT_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string').slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

export function rememberEmoji(code: string): string[] {
  const list = [code, ...readRecentEmoji().filter((c) => c !== code)].slice(0, RECENT_MAX);
  try {
    window.localStorage.setItem(RECENT_KEY, JSON.stringify(list));
  } catch {
    // Private browsing or a full store: the list lives for this page only.
  }
  return list;
}

/** Puts `text` in place of the selection of the textarea `id` (or at the end of `value`), and answers where the caret goes. */
export function insertAt(value: string, start: number, end: number, text: string): { value: string; caret: number } {
  return { value: value.slice(0, start) + text + value.slice(end), caret: start + text.length };
}
