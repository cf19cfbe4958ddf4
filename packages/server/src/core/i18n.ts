import { CODE_MESSAGES, isLocale, LOCALE_COOKIE, resolveLocale, type CodeValue, type Locale } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import type { LocalizedText } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The site's default language (the siteLocale setting), read once per /api request (api.ts). */
    siteLocale?: Locale;
  }
}

/** The language the visitor chose (the `locale` cookie), if any. */
export function chosenLocale(request: FastifyRequest): Locale | undefined {
  const fromCookie = request.cookies?.[LOCALE_COOKIE];
  return isLocale(fromCookie) ? fromCookie : undefined;
}

/**
 * The locale of the server's messages: the page's language, by the rule the web app uses too
 * (packages/shared/src/locale.ts): the `locale` cookie, else the site's default, else zh.
 */
export function requestLocale(request: FastifyRequest): Locale {
  return resolveLocale(chosenLocale(request), request.siteLocale);
}

export function localize(text: LocalizedText, locale: Locale): string {
  return typeof text === 'string' ? text : text[locale];
}

export function codeMessage(code: CodeValue, locale: Locale): string {
  return (CODE_MESSAGES[code] ?? CODE_MESSAGES[-6001])[locale];
}
