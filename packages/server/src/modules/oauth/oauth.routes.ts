import {
  oauthCallbackQuery,
  oauthProviderDeleteBody,
  oauthProviderSaveBody,
  oauthStartQuery,
  oauthUnlinkBody,
  type OauthError,
} from '@luntan/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../core/envelope.js';
import type { DB } from '../../db/schema.js';
import { adminOnly, loginRequired } from '../../access/guards.js';
import { clientOf, setSignInCookies } from '../../access/session-cookie.js';
import { requireUser } from '../../access/viewer.js';
import { siteBaseUrl } from '../settings/index.js';
import { unlinkIdentity } from './identities.service.js';
import { beginOidc, finishOidc } from './oidc.service.js';
import { OauthFlowError, STATE_TTL_MS } from './sign-in-flow.js';
import {
  linkedAccounts,
  listProvidersForAdmin,
  publicProviders,
  removeProvider,
  saveProvider,
} from './providers.service.js';

/** The cookie that binds a sign-in under way to the browser that started it. */
const STATE_COOKIE = 'luntan_oauth_state';
const STATE_COOKIE_PATH = '/api/v3/oauth';

/** Sign-in calls open while the site is closed (administrators may sign in with a provider too). */
export const OAUTH_SIGN_IN_CALLS = ['/api/v3/oauth/:slug/start', '/api/v3/oauth/:slug/callback'];

/** The address the request came to, for links back to the site when siteUrl is not set. */
export const requestBase = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Ends a browser's sign-in on the login page (or /my) with a written reason the page translates. */
export function redirectWithError(reply: FastifyReply, reason: OauthError, to: 'login' | 'my') {
  return reply.redirect(`${to === 'my' ? '/my?tab=settings&' : '/user/login?'}oauthError=${reason}`, 302);
}

export interface OauthRoutesOptions {
  /**
   * Whether WeChat sign-in is set up, for the login page's buttons and the viewer's ways to sign in. Given by the
   * assembly (api.ts) from the wechat module, which stands on this one: oauth never imports it.
   */
  isWechatConfigured?: (db: Kysely<DB>) => Promise<boolean>;
}

export async function oauthRoutes(app: FastifyInstance, options: OauthRoutesOptions): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const isWechatConfigured = options.isWechatConfigured ?? (() => Promise.resolve(false));
  const base = (request: FastifyRequest) => siteBaseUrl(db, requestBase(request));

  api.get(
    '/backAdmin/oauth/providers',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['oauth', 'admin'],
        summary: 'The OpenID Connect sign-in providers (never their secrets), with the callback URL to register',
      },
    },
    async (request) => ok(request, await listProvidersForAdmin(db, await base(request))),
  );

  api.post(
    '/backAdmin/oauth/providers.save',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['oauth', 'admin'],
        summary: 'Add (no id) or change a sign-in provider',
        description:
          'issuer: the OpenID Connect issuer (its /.well-known/openid-configuration is read); clientSecret is ' +
          'required for a new provider, and left empty keeps the stored one; scopes always include openid ' +
          '(default "openid profile email"). A taken slug is -4003.',
        body: oauthProviderSaveBody,
      },
    },
    async (request) => ok(request, await saveProvider(db, request.body, await base(request))),
  );

  api.post(
    '/backAdmin/oauth/providers.delete',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['oauth', 'admin'],
        summary: 'Delete a sign-in provider (-4005 while accounts are linked to it: switch it off instead)',
        body: oauthProviderDeleteBody,
      },
    },
    async (request) => {
      await removeProvider(db, request.body.id);
      return ok(request, {});
    },
  );

  api.get(
    '/v3/oauth/providers',
    { schema: { tags: ['oauth'], summary: 'The sign-in buttons of the login page: enabled providers, and WeChat' } },
    async (request) => ok(request, await publicProviders(db, await isWechatConfigured(db))),
  );

  api.get(
    '/v3/oauth/identities',
    {
      onRequest: loginRequired,
      schema: { tags: ['oauth'], summary: 'The viewer’s ways to sign in (for /my): providers, linked or not' },
    },
    async (request) => {
      const user = requireUser(request.viewer);
      return ok(request, await linkedAccounts(db, user.id, await isWechatConfigured(db)));
    },
  );

  api.post(
    '/v3/oauth/unlink',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: {
        tags: ['oauth'],
        summary: 'Unlink a provider ({providerId}) or WeChat ({kind: "wechat"}) from the viewer’s account',
        description:
          'Refused (-4002) when it is the account’s last way to sign in: no other linked account and no password ' +
          'its owner set (an account made by a provider’s sign-in has a random one).',
        body: oauthUnlinkBody,
      },
    },
    async (request) => {
      const user = requireUser(request.viewer);
      const body = request.body;
      if ('providerId' in body) await unlinkIdentity(db, user.id, 'oidc', body.providerId);
      else await unlinkIdentity(db, user.id, 'wechat', 0);
      return ok(request, await linkedAccounts(db, user.id, await isWechatConfigured(db)));
    },
  );

  const slugParams = z.object({ slug: z.string().max(64) });

  api.get(
    '/v3/oauth/:slug/start',
    {
      config: { identity: true },
      schema: {
        tags: ['oauth'],
        summary: 'Start a sign-in with a provider: 302 to its authorization page',
        description:
          'redirect: a path on this site to return to (default /). link=1: the signed-in viewer links the ' +
          'provider to their account (from /my). Problems go to /user/login?oauthError=<code> (/my for a link).',
        params: slugParams,
        querystring: oauthStartQuery,
      },
    },
    async (request, reply) => {
      const linking = request.query.link === '1';
      if (linking && !request.viewer.user) return redirectWithError(reply, 'needLogin', 'login');
      try {
        const { url, state } = await beginOidc(db, request.params.slug, {
          redirect: request.query.redirect,
          linkUserId: linking ? request.viewer.user!.id : null,
          siteBase: await base(request),
        });
        reply.setCookie(STATE_COOKIE, state, {
          path: STATE_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure: request.protocol === 'https',
          maxAge: STATE_TTL_MS / 1000,
        });
        return reply.redirect(url, 302);
      } catch (err) {
        return failFlow(request, reply, err, linking ? 'my' : 'login');
      }
    },
  );

  api.get(
    '/v3/oauth/:slug/callback',
    {
      config: { identity: true },
      schema: {
        tags: ['oauth'],
        summary: 'Where the provider sends the browser back: signs in (or links), then 302 to the page',
        params: slugParams,
        querystring: oauthCallbackQuery,
      },
    },
    async (request, reply) => {
      const cookieState = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
      try {
        const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
        const outcome = await finishOidc(
          app.ctx,
          request.params.slug,
          { query: request.query, rawQuery },
          { cookieState, siteBase: await base(request), client: clientOf(request) },
        );
        if (outcome.session) await setSignInCookies(db, request, reply, outcome.session);
        return reply.redirect(outcome.redirect, 302);
      } catch (err) {
        return failFlow(request, reply, err, 'login');
      }
    },
  );
}

/** A sign-in that cannot go on lands on a page with a written reason, never on an error page. */
function failFlow(request: FastifyRequest, reply: FastifyReply, err: unknown, to: 'login' | 'my') {
  if (err instanceof OauthFlowError) return redirectWithError(reply, err.reason, err.to === 'my' ? 'my' : to);
  request.log.error({ err }, 'sign-in with a provider failed');
  return redirectWithError(reply, 'provider', to);
}
