import { DEFAULT_LOCALE, LOCALE_COOKIE, type Locale } from '@luntan/shared';
import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { zh, type Messages } from './zh';

export const resources = { zh: { translation: zh }, en: { translation: en } } as const;

/** One i18next instance per server request, one in the browser. Resources are bundled: no loading step. */
export function createI18n(locale: Locale): I18n {
  const instance = createInstance();
  void instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: ['zh', 'en'],
    resources: resources as unknown as Record<Locale, { translation: Messages }>,
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

export function htmlLang(locale: Locale): string {
  return locale === 'zh' ? 'zh-CN' : 'en';
}

/** Sets the locale cookie for a year (read by the server on the next render). */
export function writeLocaleCookie(locale: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
