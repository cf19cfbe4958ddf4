import {
  wechatCodeQuery,
  wechatOauthQuery,
  wechatQrPollQuery,
  wechatQrQuery,
  wechatRebindQrQuery,
} from '@luntan/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { clientOf, setSignInCookies } from '../../access/session-cookie.js';
import { redirectWithError, requestBase } from '../oauth/index.js';
import { OauthFlowError, STATE_TTL_MS } from '../oauth/index.js';
import { siteBaseUrl } from '../settings/index.js';
import { beginWechat, createQrSession, finishWechat, pollQrSession, type QrPurpose } from './wechat.service.js';

/** The cookie that binds a WeChat sign-in under way to the phone's browser that started it. */
const STATE_COOKIE = 'luntan_wx_state';
const STATE_COOKIE_PATH = '/api/v3/users/wechat';

/** WeChat sign-in calls open while the site is closed (an administrator may sign in with WeChat). */
export const WECHAT_SIGN_IN_CALLS = [
  '/api/v3/users/wechat/h5.oauth',
  '/api/v3/users/wechat/h5.login',
  '/api/v3/users/pc/wechat/h5.genqrcode',
  '/api/v3/users/pc/wechat/h5.login',
];

export async function wechatRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const base = (request: FastifyRequest) => siteBaseUrl(db, requestBase(request));
  const viewerId = (request: FastifyRequest) => request.viewer.user?.id ?? null;
  // Every call here signs in or links a WeChat account: `identity`, so no API key may make one.

  api.get(
    '/v3/users/wechat/h5.oauth',
    {
      config: { identity: true },
      schema: {
        tags: ['wechat'],
        summary: 'Start a WeChat sign-in on the phone: 302 to WeChat’s authorize page (snsapi_userinfo)',
        description:
          'type login (default), bind or rebind (signed in), pc (sessionToken: finish a desktop’s QR session). ' +
          'WeChat sends the phone back to /user/wx-auth?type=<type>&code=&state=, whose page calls h5.login, ' +
          'h5.bind or h5.rebind. Problems go to /user/login?oauthError=<code> (/my for bind and rebind).',
        querystring: wechatOauthQuery,
      },
    },
    async (request, reply) => {
      const linking = request.query.type === 'bind' || request.query.type === 'rebind';
      try {
        const { url, state } = await beginWechat(db, request.query, {
          viewerId: viewerId(request),
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
        const to = linking && !(err instanceof OauthFlowError && err.reason === 'needLogin') ? 'my' : 'login';
        if (err instanceof OauthFlowError) return redirectWithError(reply, err.reason, to);
        request.log.error({ err }, 'WeChat sign-in could not start');
        return redirectWithError(reply, 'provider', to);
      }
    },
  );

  const finish = (call: 'login' | 'bind' | 'rebind') => async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as { code: string; state: string };
    reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
    const result = await finishWechat(
      app.ctx,
      call,
      { code: query.code, state: query.state, cookieState: request.cookies[STATE_COOKIE] },
      { viewerId: viewerId(request), client: clientOf(request) },
    );
    if (result.accessToken !== undefined && result.expiresIn !== undefined) {
      await setSignInCookies(db, request, reply, {
        accessToken: result.accessToken,
        userId: result.userId,
        userStatus: result.userStatus,
        expiresIn: result.expiresIn,
      });
    }
    return ok(request, result);
  };

  api.get(
    '/v3/users/wechat/h5.login',
    {
      config: { identity: true },
      schema: {
        tags: ['wechat'],
        summary: 'Finish a WeChat sign-in with the code: sign in, creating the account on a first sign-in',
        description:
          'Answers the session (and sets the cookie) and where to go next (/user/supplementary while sign-in ' +
          'fields are owed). For a desktop’s QR session the phone gets no session: the desktop’s poll does.',
        querystring: wechatCodeQuery,
      },
    },
    finish('login'),
  );

  api.get(
    '/v3/users/wechat/h5.bind',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: {
        tags: ['wechat'],
        summary: 'Bind WeChat to the signed-in account (-4003 when it is bound elsewhere or one is bound already)',
        querystring: wechatCodeQuery,
      },
    },
    finish('bind'),
  );

  api.get(
    '/v3/users/wechat/h5.rebind',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: {
        tags: ['wechat'],
        summary: 'Replace the signed-in account’s WeChat with another one (-4003 when that one is bound elsewhere)',
        querystring: wechatCodeQuery,
      },
    },
    finish('rebind'),
  );

  api.get(
    '/v3/users/pc/wechat/h5.genqrcode',
    {
      config: { identity: true },
      schema: {
        tags: ['wechat'],
        summary: 'A QR session for the desktop: the URL to show as a QR code, and the token to poll with',
        description: 'type pc_login (sign the desktop in) or pc_bind (bind WeChat to the signed-in account).',
        querystring: wechatQrQuery,
      },
    },
    async (request) =>
      ok(
        request,
        await createQrSession(db, request.query.type, { viewerId: viewerId(request), siteBase: await base(request) }),
      ),
  );

  const poll = (purposes: readonly QrPurpose[]) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { sessionToken } = request.query as { sessionToken: string };
    const result = await pollQrSession(db, sessionToken, {
      viewerId: viewerId(request),
      client: clientOf(request),
      purposes,
    });
    if (result.accessToken !== undefined) {
      await setSignInCookies(db, request, reply, {
        accessToken: result.accessToken,
        userId: result.userId!,
        userStatus: result.userStatus!,
        expiresIn: result.expiresIn!,
      });
    }
    return ok(request, result);
  };

  api.get(
    '/v3/users/pc/wechat/h5.login',
    {
      // Hands out a session: never to a navigation or an image from another site (core/same-origin.ts).
      config: { identity: true, changesState: true },
      schema: {
        tags: ['wechat'],
        summary: 'Polled by the desktop: pending until the phone is done, then the session (and its cookie)',
        description:
          'An expired or already used session token is -4010; a phone that was refused (registration closed, ' +
          'a banned account...) makes the poll answer the same error.',
        querystring: wechatQrPollQuery,
      },
    },
    poll(['pc_login', 'pc_bind']),
  );

  api.get(
    '/v3/users/pc/wechat/h5.bind',
    {
      // Hands out a session: never to a navigation or an image from another site (core/same-origin.ts).
      config: { identity: true, changesState: true },
      onRequest: loginRequired,
      schema: {
        tags: ['wechat'],
        summary: 'Polled by the desktop binding WeChat (a pc_bind QR session): pending until the phone is done',
        description: 'The family’s poll of a bind; h5.login answers the same for a pc_bind session.',
        querystring: wechatQrPollQuery,
      },
    },
    poll(['pc_bind']),
  );

  api.get(
    '/v3/users/pc/wechat.rebind.genqrcode',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: {
        tags: ['wechat'],
        summary: 'A QR session that replaces the signed-in account’s WeChat with the one of the phone that scans it',
        description:
          'As h5.genqrcode: the URL to show as a QR code and the token to poll wechat.rebind.poll with. A WeChat ' +
          'bound to another account is refused on the phone (-4003), and the poll answers the same.',
        querystring: wechatRebindQrQuery,
      },
    },
    async (request) =>
      ok(
        request,
        await createQrSession(db, 'pc_rebind', { viewerId: viewerId(request), siteBase: await base(request) }),
      ),
  );

  api.get(
    '/v3/users/pc/wechat.rebind.poll',
    {
      config: { identity: true, changesState: true },
      onRequest: loginRequired,
      schema: {
        tags: ['wechat'],
        summary: 'Polled by the desktop rebinding WeChat: pending until the phone is done, then the account',
        querystring: wechatQrPollQuery,
      },
    },
    poll(['pc_rebind']),
  );
}
