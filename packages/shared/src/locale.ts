export const LOCALES = ['zh', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh';
/** Name of the cookie that chooses the locale (zh or en). */
export const LOCALE_COOKIE = 'locale';

export function isLocale(value: unknown): value is Locale {
  return value === 'zh' || value === 'en';
}

/**
 * The language of a page and of the server's messages, one rule for both so they never disagree: the visitor's
 * choice (the `locale` cookie), else the site's default (the `siteLocale` setting), else zh. The browser's
 * Accept-Language plays no part: a Chinese site stays Chinese in an English browser until the visitor switches.
 */
export function resolveLocale(cookieValue: unknown, siteLocale: unknown): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  if (isLocale(siteLocale)) return siteLocale;
  return DEFAULT_LOCALE;
}
