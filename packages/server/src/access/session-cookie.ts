import {
  ACCESS_TOKEN_NAME,
  ACCESS_TOKEN_TTL_MS,
  isLocale,
  LOCALE_COOKIE,
  type Locale,
  type SessionData,
} from '@luntan/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Where a request comes from, kept with the session it opens. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
});

export function setTokenCookie(request: FastifyRequest, reply: FastifyReply, session: SessionData): void {
  reply.setCookie(ACCESS_TOKEN_NAME, session.accessToken, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: ACCESS_TOKEN_TTL_MS / 1000,
  });
}

/**
 * What every sign-in gives the browser: the session cookie, and the language the member chose in the personal
 * centre (it follows them to a new browser). Password, OpenID Connect and WeChat sign-ins all end here.
 */
export async function setSignInCookies(
  db: Kysely<DB>,
  request: FastifyRequest,
  reply: FastifyReply,
  session: SessionData,
): Promise<void> {
  setTokenCookie(request, reply, session);
  const locale = await preferredLocale(db, session.userId);
  if (locale && request.cookies[LOCALE_COOKIE] !== locale) {
    reply.setCookie(LOCALE_COOKIE, locale, { path: '/', maxAge: 365 * 24 * 3600, sameSite: 'lax' });
  }
}

/** The language a member chose (update.user), or null when they follow the site's. */
async function preferredLocale(db: Kysely<DB>, userId: number): Promise<Locale | null> {
  const user = await db.selectFrom('users').select('locale').where('id', '=', userId).executeTakeFirst();
  return user && isLocale(user.locale) ? user.locale : null;
}
