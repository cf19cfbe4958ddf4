import type { FastifyRequest } from 'fastify';
import { forbidden } from '../core/errors.js';
import { msg } from '../i18n/index.js';
import type { ViewerContext } from './viewer-context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The call signs in, registers, or starts, finishes or changes a way of signing in or a credential: a WeChat or
     * provider account linked, a password, pay password, mobile number or e-mail address set. No API key may make
     * it, whatever its scope: a key lets a program act in the forum as its member, never become that member
     * (a read key that could bind its holder's WeChat would be a full sign-in).
     */
    identity?: boolean;
  }
}

type ApiKey = NonNullable<ViewerContext['apiKey']>;

/**
 * What an API key may call (api.ts, for every /api request made with one): never an `identity` call; with the read
 * scope only reads, a GET that changes state (`changesState`) counting as a write; the back office only with the
 * admin scope. -4002 else.
 */
export function assertApiKeyScope(request: FastifyRequest, key: ApiKey): void {
  const url = request.routeOptions.url ?? '';
  const config = request.routeOptions.config;
  if (config.identity === true) throw apiKeyIdentityRefused();
  const reads = (request.method === 'GET' || request.method === 'HEAD') && config.changesState !== true;
  if (key.scope === 'read' && !reads) throw forbidden(msg('access.apiKeyReadOnly'));
  if (key.scope !== 'admin' && url.startsWith('/api/backAdmin')) throw forbidden(msg('access.apiKeyNotAdmin'));
}

/** For a call that touches a credential only with some of its fields (update.user's password): no API key. */
export function refuseApiKeyForIdentity(viewer: ViewerContext): void {
  if (viewer.apiKey) throw apiKeyIdentityRefused();
}

const apiKeyIdentityRefused = () => forbidden(msg('access.apiKeyNoIdentity'));
