import { DEFAULT_LOCALE, LOCALE_COOKIE, type Locale } from '@luntan/shared';
import { createInstance, type i18n as I18n } from 'i18next';
import { getI18n, initReactI18next } from 'react-i18next';
import type { Messages } from './zh';
import type { AdminMessages } from './zh-admin';

/**
 * i18next without the catalogues: what both the server and the browser need. The server renderer bundles both
 * catalogues (index.ts); the browser loads only the page's language (`loadCatalogue`, before hydrating, so the
 * first render matches the server's) and another one when the visitor switches (`switchLanguage`).
 */
/** Catalogues by language (the server's carry the back office's messages too, see index.ts). */
export type Catalogues = Partial<Record<Locale, Messages>>;

/** The source of each catalogue: the key of the build manifest, so the server can preload the page's one. */
export const CATALOGUE_SOURCES: Record<Locale, string> = { zh: 'src/i18n/zh.ts', en: 'src/i18n/en.ts' };

/** One i18next instance per server request, one in the browser, over the catalogues given. */
export function createI18nWith(locale: Locale, catalogues: Catalogues): I18n {
  const resources: Record<string, { translation: Messages }> = {};
  for (const [name, messages] of Object.entries(catalogues)) if (messages) resources[name] = { translation: messages };
  const instance = createInstance();
  void instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: ['zh', 'en'],
    resources,
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

/** A language's messages, as their own chunk. */
export async function loadCatalogue(locale: Locale): Promise<Messages> {
  return locale === 'en' ? (await import('./en')).en : (await import('./zh')).zh;
}

async function addAdminMessages(i18n: I18n, locale: Locale): Promise<void> {
  if (i18n.getResource(locale, 'translation', 'admin.title') !== undefined) return;
  const messages: AdminMessages =
    locale === 'en' ? (await import('./en-admin')).enAdmin : (await import('./zh-admin')).zhAdmin;
  i18n.addResourceBundle(locale, 'translation', { admin: messages }, true, false);
}

/**
 * The back office's messages, added to the page's catalogue before a back-office page renders (its route modules
 * wait for this, routing/route-modules.ts). The server's instances have them already.
 */
export async function loadAdminCatalogue(): Promise<void> {
  const i18n = getI18n() as I18n | undefined;
  if (!i18n) return;
  await addAdminMessages(i18n, i18n.resolvedLanguage === 'en' ? 'en' : 'zh');
}

/** Speaks another language, loading its catalogue first if this page has not yet (and the back office's if shown). */
export async function switchLanguage(i18n: I18n, locale: Locale): Promise<void> {
  const current: Locale = i18n.resolvedLanguage === 'en' ? 'en' : 'zh';
  if (!i18n.hasResourceBundle(locale, 'translation')) {
    i18n.addResourceBundle(locale, 'translation', await loadCatalogue(locale));
  }
  if (i18n.getResource(current, 'translation', 'admin.title') !== undefined) await addAdminMessages(i18n, locale);
  await i18n.changeLanguage(locale);
}

export function htmlLang(locale: Locale): string {
  return locale === 'zh' ? 'zh-CN' : 'en';
}

/** Sets the locale cookie for a year (read by the server on the next render). */
export function writeLocaleCookie(locale: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
