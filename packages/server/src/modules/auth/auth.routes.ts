import { ACCESS_TOKEN_NAME, Code, loginBody, registerBody, usernameCheckBody, type SessionData } from '@luntan/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { DB, User } from '../../db/schema.js';
import { AppError } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { accountsOfLoginName, login, logout, register } from './auth.service.js';
import { clientOf, setSignInCookies, setTokenCookie } from '../../access/session-cookie.js';
import { linkBase, startRegistrationLink } from '../mail/index.js';
import { normalizeUsername } from '../users/index.js';
import { isUsernameTaken } from '../users/index.js';
import { requireUser } from '../../access/viewer.js';
import { assertCaptcha } from '../captcha/index.js';
import { readSiteSettings } from '../settings/index.js';
import { loginAccountKey, loginNameKey, type LoginThrottle } from '../../core/rate-limit.js';

/** While loginCaptcha is on, a login needs a captcha after this many failures in a row (account or address). */
export const LOGIN_CAPTCHA_AFTER_FAILURES = 3;

async function loginNeedsCaptcha(db: Kysely<DB>, throttle: LoginThrottle, ip: string, accounts: readonly string[]) {
  if ((await readSiteSettings(db)).loginCaptcha !== true) return false;
  const failures = await throttle.consecutiveFailures(ip, accounts);
  return Math.max(failures.account, failures.address) >= LOGIN_CAPTCHA_AFTER_FAILURES;
}

/**
 * Where a login's failures are counted: per account, whichever of its names was typed (username in any case, bound
 * number), and against every account the name could sign in to; a name that matches no account under the name
 * itself, so probing names nobody has waits and answers the same way.
 */
function throttleKeys(name: string, accounts: readonly User[]): string[] {
  if (accounts.length === 0) return [loginNameKey(normalizeUsername(name))];
  return accounts.map((user) => loginAccountKey(user.id));
}

/**
 * The answer to every way of signing in (username.login, sms.login): the session, its cookie, and the language the
 * member chose in the personal centre, which follows them to a new browser.
 */
export async function answerSession(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Kysely<DB>,
  session: SessionData,
): Promise<SessionData> {
  await setSignInCookies(db, request, reply, session);
  return session;
}

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, limits } = app.ctx;

  api.post(
    '/v3/users/username.register',
    {
      config: { identity: true },
      // Counted before validation: a flood of bad sign-ups is still a flood.
      onRequest: async (request) => limits.register.consume(request.ip),
      schema: { tags: ['auth'], summary: 'Register with a username and password', body: registerBody },
    },
    async (request, reply) => {
      const session = await register(db, app.ctx.stopWords, request.body, clientOf(request));
      if (request.body.email !== undefined) {
        await startRegistrationLink(app.ctx, session.userId, await linkBase(app.ctx, request));
      }
      setTokenCookie(request, reply, session);
      return ok(request, session);
    },
  );

  api.post(
    '/v3/users/username.login',
    {
      config: { identity: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in with a username or a bound mobile number, and the password',
        description:
          '`username` is a username or a bound mobile number. The account with that username is tried first, then ' +
          "the one with that number (an older username may be another member's number), each with the password. " +
          'Failed attempts are counted per address (RATE_LIMIT_LOGIN_FAILURES a minute) and per account, whichever ' +
          'of its names was typed (a name that matches no account: per name): after five in a row each further ' +
          'attempt on the account waits longer (1 s, 2 s, 4 s ... 5 min): -4029 with ' +
          'Data.retryAfter (seconds) and a Retry-After header until then. While loginCaptcha is on, after ' +
          `${LOGIN_CAPTCHA_AFTER_FAILURES} failures in a row of the account or the address the call needs a solved ` +
          'captcha (-4001 field captcha without one).',
        body: loginBody,
      },
    },
    async (request, reply) => {
      const accounts = await accountsOfLoginName(db, request.body.username);
      const keys = throttleKeys(request.body.username, accounts);
      await limits.login.assertAllowed(request.ip, keys);
      if (await loginNeedsCaptcha(db, limits.login, request.ip, keys)) {
        await assertCaptcha(db, request.body.captcha);
      }
      const session = await login(db, accounts, request.body.password, clientOf(request));
      if (!session) {
        await limits.login.recordFailure(request.ip, keys);
        throw new AppError(Code.LOGIN_FAILED);
      }
      await limits.login.recordSuccess(loginAccountKey(session.userId), request.ip);
      return ok(request, await answerSession(request, reply, db, session));
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
