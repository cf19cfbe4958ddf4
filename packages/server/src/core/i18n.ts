import { CODE_MESSAGES, DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type CodeValue, type Locale } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import type { LocalizedText } from './errors.js';

/** The locale of the server's messages: the `locale` cookie, then Accept-Language, then zh. */
export function requestLocale(request: FastifyRequest): Locale {
  const fromCookie = request.cookies?.[LOCALE_COOKIE];
  if (isLocale(fromCookie)) return fromCookie;
  const accept = request.headers['accept-language'];
  if (typeof accept === 'string') {
    for (const part of accept.split(',')) {
      const tag = part.trim().slice(0, 2).toLowerCase();
      if (isLocale(tag)) return tag;
    }
  }
  return DEFAULT_LOCALE;
}

export function localize(text: LocalizedText, locale: Locale): string {
  return typeof text === 'string' ? text : text[locale];
}

export function codeMessage(code: CodeValue, locale: Locale): string {
  return (CODE_MESSAGES[code] ?? CODE_MESSAGES[-6001])[locale];
}
