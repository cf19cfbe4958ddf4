import type { Locale } from '@luntan/shared';
import type { i18n as I18n } from 'i18next';
import { en } from './en';
import { enAdmin } from './en-admin';
import { createI18nWith } from './runtime';
import { zh } from './zh';
import { zhAdmin } from './zh-admin';

export { CATALOGUE_SOURCES, htmlLang } from './runtime';

/** Both catalogues whole, the back office's messages included. */
const zhAll = { ...zh, admin: { ...zh.admin, ...zhAdmin } };
const enAll = { ...en, admin: { ...en.admin, ...enAdmin } };

/**
 * An i18next instance with both catalogues bundled: the server renderer's (one per request) and the tests'. The
 * browser's entry uses runtime.ts instead, which loads only the page's language.
 */
export function createI18n(locale: Locale): I18n {
  return createI18nWith(locale, { zh: zhAll, en: enAll });
}
