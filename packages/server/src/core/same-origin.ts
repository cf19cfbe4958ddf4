import { Code } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { msg } from '../i18n/index.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET that changes something (the family made some calls GETs: listing notices marks them read, an invitation
     * link is made, a view is counted). It passes the same cross-site check as a POST: an `<img>` on another site,
     * sent with the member's cookie, must not do it.
     */
    changesState?: boolean;
  }
}

/**
 * The token of an `Authorization: Bearer <token>` header, or null: the one way a request is signed in without the
 * cookie (access/viewer.ts). Any other Authorization (Basic, Negotiate: a browser adds them by itself on a site
 * behind HTTP authentication) leaves the request on the cookie.
 */
export function bearerToken(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  return /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? null;
}

/**
 * Whether a state-changing request may have come from another site's page. A cookie is sent along with a form post
 * from any page of the same site (another port, a sibling subdomain), so the browser's own word decides:
 * `Sec-Fetch-Site` where it is sent (every current browser), else `Origin` against our own origin. A request with
 * neither is not from a browser page (curl, a server), and one signed in by a Bearer token does not use the cookie:
 * both pass (a Basic or Negotiate header, which a browser sends by itself, does not make a request cookie-less). A GET is a write here when its route says it changes state (`config.changesState`). This is the check of Go's net/http CrossOriginProtection and of the Fetch Metadata guidance.
 */
export function isCrossSiteWrite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method) && request.routeOptions.config.changesState !== true) return false;
  if (bearerToken(request.headers.authorization) !== null) return false;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  return origin.toLowerCase() !== `${request.protocol}://${request.host}`.toLowerCase();
}

/** onRequest hook for /api: a cross-site write is refused before anything else happens (HTTP 403, -4002). */
export async function refuseCrossSiteWrites(request: FastifyRequest): Promise<void> {
  if (isCrossSiteWrite(request)) {
    throw new AppError(Code.UNAUTHORIZED, msg('core.requestFromAnotherSite'), { httpStatus: 403 });
  }
}
