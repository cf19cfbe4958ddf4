import type { ImageEmoji, Locale, UnicodeEmojiSet } from '@luntan/shared';
import type { ApiClient } from './client';
import type { ApiResult } from './dispatcher';

/** The site's image emoji (the family's `emoji` table). */
export const imageEmojiQuery = (api: ApiClient) => ({
  queryKey: ['emoji', 'image'] as const,
  queryFn: (): Promise<ApiResult<ImageEmoji[]>> =>
    api.get<ImageEmoji[]>('/api/v3/emoji', undefined, { handleError: false }),
  staleTime: 10 * 60_000,
});

/** The Unicode emoji, named in the page's language; they change only with the server's version. */
export const unicodeEmojiQuery = (api: ApiClient, locale: Locale) => ({
  queryKey: ['emoji', 'unicode', locale] as const,
  queryFn: (): Promise<ApiResult<UnicodeEmojiSet>> =>
    api.get<UnicodeEmojiSet>('/api/v3/emoji.unicode', { locale }, { handleError: false }),
  staleTime: Infinity,
});
