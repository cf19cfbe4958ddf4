import type { Locale, UnicodeEmoji, UnicodeEmojiSet } from '@luntan/shared';
import { createRequire } from 'node:module';

/**
 * The Unicode emoji, from emojibase-data (pinned in package.json): GitHub's shortcodes (`:smile:`, `:+1:`), CLDR's
 * names in zh and en, emojibase's groups and order. Emoji newer than Unicode Emoji 15.1 are left out: many systems
 * in use cannot draw them yet. Read once per process, when first asked.
 */

interface CompactEmoji {
  hexcode: string;
  label: string;
  unicode: string;
  group?: number;
  order?: number;
}

const require = createRequire(import.meta.url);
/** emojibase's group numbers (meta/groups.json), in their order; 2 (skin tones, hair) is no emoji of its own. */
const GROUPS: ReadonlyArray<[number, string]> = [
  [0, 'smileys-emotion'],
  [1, 'people-body'],
  [3, 'animals-nature'],
  [4, 'food-drink'],
  [5, 'travel-places'],
  [6, 'activities'],
  [7, 'objects'],
  [8, 'symbols'],
  [9, 'flags'],
];
const NEWEST_VERSION = 15.1;

let shortcodes: Map<string, string[]> | undefined;
/** hexcode → its GitHub shortcodes, the first being the one a picker inserts. */
function shortcodesByHexcode(): Map<string, string[]> {
  if (!shortcodes) {
    const raw = require('emojibase-data/en/shortcodes/github.json') as Record<string, string | string[]>;
    const versions = require('emojibase-data/versions/emoji.json') as Record<string, string[]>;
    const tooNew = new Set(
      Object.entries(versions)
        .filter(([version]) => Number(version) > NEWEST_VERSION)
        .flatMap(([, hexcodes]) => hexcodes),
    );
    shortcodes = new Map(
      Object.entries(raw)
        .filter(([hexcode]) => !tooNew.has(hexcode))
        .map(([hexcode, codes]) => [hexcode, typeof codes === 'string' ? [codes] : codes]),
    );
  }
  return shortcodes;
}

function compact(locale: Locale): CompactEmoji[] {
  return locale === 'en'
    ? (require('emojibase-data/en/compact.json') as CompactEmoji[])
    : (require('emojibase-data/zh/compact.json') as CompactEmoji[]);
}

let characters: Map<string, string> | undefined;
/** The character a GitHub shortcode (no colons) stands for, if it is one. */
export function unicodeEmojiChar(code: string): string | undefined {
  if (!characters) {
    const byHexcode = new Map(compact('en').map((e) => [e.hexcode, e.unicode]));
    characters = new Map();
    for (const [hexcode, codes] of shortcodesByHexcode()) {
      const char = byHexcode.get(hexcode);
      if (char) for (const code of codes) characters.set(code, char);
    }
  }
  return characters.get(code);
}

const sets = new Map<Locale, UnicodeEmojiSet>();
/** The picker's set in one language: by group, in emojibase's order, with every alias. */
export function unicodeEmojiSet(locale: Locale): UnicodeEmojiSet {
  const known = sets.get(locale);
  if (known) return known;
  const codes = shortcodesByHexcode();
  const byGroup = new Map<number, Array<UnicodeEmoji & { order: number }>>();
  const aliases: Record<string, string> = {};
  for (const e of compact(locale)) {
    const all = codes.get(e.hexcode);
    if (!all || e.group === undefined) continue;
    const [code, ...others] = all as [string, ...string[]];
    for (const other of others) aliases[other] = code;
    const list = byGroup.get(e.group) ?? [];
    list.push({ code, char: e.unicode, name: e.label, order: e.order ?? 0 });
    byGroup.set(e.group, list);
  }
  const set: UnicodeEmojiSet = {
    locale,
    shortcodes: 'github',
    categories: GROUPS.filter(([group]) => byGroup.has(group)).map(([group, key]) => ({
      key,
      emoji: byGroup
        .get(group)!
        .sort((a, b) => a.order - b.order)
        .map(({ code, char, name }) => ({ code, char, name })),
    })),
    aliases,
  };
  sets.set(locale, set);
  return set;
}
