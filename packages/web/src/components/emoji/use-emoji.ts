import { isLocale, type EmojiFound, type ImageEmoji, type UnicodeEmoji } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { emojiCategoryKey } from './emoji-categories';
import { imageEmojiQuery, unicodeEmojiQuery } from '../../api/emoji-queries';
import { isSuccess } from '../../api/dispatcher';
import { useAppContext } from '../../app-context';
import { useTranslation } from '../../i18n/use-translation';

/** One emoji of the picker: what it inserts (`:code:`), how it shows, what a search matches. */
export interface PickerEmoji {
  /** With its colons: `:smile:`, `:weixiao:`. */
  code: string;
  char?: string;
  url?: string;
  name: string;
}

export interface EmojiCategory {
  /** `site:<category>` for the site's images, else the Unicode group's key. */
  key: string;
  /** The site's own category name, shown as it is; the Unicode groups are named by the catalogue. */
  label?: string;
  emoji: PickerEmoji[];
}

export interface EmojiData {
  categories: EmojiCategory[];
  /** What a code's name (no colons) shows as, as the server renders it: the site's image first, then Unicode. */
  lookup: (name: string) => EmojiFound | undefined;
  /** The picker's emoji by code (with colons), for the recently used ones. */
  byCode: ReadonlyMap<string, PickerEmoji>;
  loading: boolean;
  failed: boolean;
}

function siteCategories(list: readonly ImageEmoji[]): EmojiCategory[] {
  const groups = new Map<string, EmojiCategory>();
  for (const e of list) {
    const key = emojiCategoryKey(e.category);
    const group = groups.get(key) ?? { key, label: e.category, emoji: [] };
    group.emoji.push({ code: e.code, url: e.url, name: e.code.replace(/:/g, '') });
    groups.set(key, group);
  }
  return [...groups.values()];
}

const unicodePicker = (e: UnicodeEmoji): PickerEmoji => ({ code: `:${e.code}:`, char: e.char, name: e.name });

/**
 * The site's image emoji and the Unicode set in the page's language (two cached calls). `enabled: false` reads
 * only what is already cached, for places that show emoji without offering the picker.
 */
export function useEmoji(enabled = true): EmojiData {
  const { api } = useAppContext();
  const { i18n } = useTranslation();
  const locale = isLocale(i18n.language) ? i18n.language : 'zh';
  const images = useQuery({ ...imageEmojiQuery(api), enabled });
  const unicode = useQuery({ ...unicodeEmojiQuery(api, locale), enabled });
  return useMemo(() => {
    const imageList = images.data && isSuccess(images.data) ? images.data.Data : [];
    const set = unicode.data && isSuccess(unicode.data) ? unicode.data.Data : undefined;
    const categories = [
      ...siteCategories(imageList),
      ...(set?.categories ?? []).map((c) => ({ key: c.key, emoji: c.emoji.map(unicodePicker) })),
    ];
    const byCode = new Map<string, PickerEmoji>();
    for (const c of categories) for (const e of c.emoji) if (!byCode.has(e.code)) byCode.set(e.code, e);
    const lookup = (name: string): EmojiFound | undefined => {
      const code = `:${set?.aliases[name] ?? name}:`;
      const found = byCode.get(`:${name}:`) ?? byCode.get(code);
      if (!found) return undefined;
      return found.url ? { url: found.url, code: found.code } : { char: found.char ?? '' };
    };
    return {
      categories,
      lookup,
      byCode,
      loading: images.isLoading || unicode.isLoading,
      failed: Boolean(
        (images.data && !isSuccess(images.data)) || (unicode.data && !isSuccess(unicode.data)) || unicode.isError,
      ),
    };
  }, [images.data, images.isLoading, unicode.data, unicode.isLoading, unicode.isError]);
}
