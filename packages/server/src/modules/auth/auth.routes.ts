import { ACCESS_TOKEN_NAME, Code, loginBody, registerBody, usernameCheckBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { isUsernameTaken, login, logout, register } from './auth.service.js';
import { clientOf, setSignInCookies, setTokenCookie } from './session-cookie.js';
import { normalizeUsername } from '../users/users.repository.js';
import { requireUser } from './viewer.js';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, limits } = app.ctx;

  api.post(
    '/v3/users/username.register',
    {
      // Counted before validation: a flood of bad sign-ups is still a flood.
      onRequest: async (request) => limits.register.consume(request.ip),
      schema: { tags: ['auth'], summary: 'Register with a username and password', body: registerBody },
    },
    async (request, reply) => {
      const session = await register(db, app.ctx.stopWords, request.body, clientOf(request));
      setTokenCookie(request, reply, session);
      return ok(request, session);
    },
  );

  api.post(
    '/v3/users/username.login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with a username and password',
        description:
          'Failed attempts are counted per address (RATE_LIMIT_LOGIN_FAILURES a minute) and per account: after ' +
          'five in a row each further attempt on the account waits longer (1 s, 2 s, 4 s ... 5 min): -4029 with ' +
          'Data.retryAfter (seconds) and a Retry-After header until then.',
        body: loginBody,
      },
    },
    async (request, reply) => {
      const account = normalizeUsername(request.body.username);
      await limits.login.assertAllowed(request.ip, account);
      const session = await login(db, request.body.username, request.body.password, clientOf(request));
      if (!session) {
        await limits.login.recordFailure(request.ip, account);
        throw new AppError(Code.LOGIN_FAILED);
      }
      await limits.login.recordSuccess(account);
      await setSignInCookies(db, request, reply, session);
      return ok(request, session);
    },
  );

  api.post(
    '/v3/users/username.check',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether a username is valid and free (-7042 when taken)',
        body: usernameCheckBody,
      },
    },
    async (request) => {
      if (await isUsernameTaken(db, request.body.username)) throw new AppError(Code.USERNAME_EXISTS);
      return ok(request, { available: true });
    },
  );

  api.post(
    '/v3/users/logout',
    { schema: { tags: ['auth'], summary: 'Revoke the current access token and clear the cookie' } },
    async (request, reply) => {
      requireUser(request.viewer);
      if (request.viewer.tokenId !== null) {
        await logout(db, request.viewer.tokenId);
        // The session's open pages stop listening.
        await app.ctx.live.publish(request.viewer.user!.id, { kind: 'logout', tokenId: request.viewer.tokenId });
      }
      reply.clearCookie(ACCESS_TOKEN_NAME, { path: '/' });
      return ok(request, {});
    },
  );
}
