import { payPasswordResetBody, smsResetPayPasswordBody, walletLogQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import { listWalletLog, readWalletInfo, resetPayPasswordBySms, setPayPassword } from './wallet.service.js';

/** The member's wallet: balances, the ledger, the pay password (docs/money.md). */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tags = ['wallet'];

  api.get(
    '/v3/wallet/user',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'My wallet: available and frozen amounts, pay password state, withdrawal rules' },
    },
    async (request) => ok(request, await readWalletInfo(db, requireUser(request.viewer))),
  );

  api.get(
    '/v3/wallet/log',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'My ledger, newest first: filter[changeType] (comma separated), filter[startTime], filter[endTime]',
        querystring: walletLogQuery,
      },
    },
    async (request) => ok(request, await listWalletLog(db, requireUser(request.viewer).id, request.query)),
  );

  api.post(
    '/v3/users/pay-password/reset',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Set or change the six-digit pay password; the login password confirms it',
        description:
          'A wrong login password is -4001 (field password) and counts as a failed sign-in of the account, as ' +
          'username.login counts them: -4029 with Data.retryAfter while it must wait.',
        body: payPasswordResetBody,
      },
    },
    async (request) => {
      const throttle = { limiter: app.ctx.limits.login, ip: request.ip };
      await setPayPassword(db, throttle, requireUser(request.viewer), request.body);
      return ok(request, {});
    },
  );

  api.post(
    '/v3/users/sms.reset.pay.pwd',
    {
      config: { identity: true },
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Set a new pay password with a reset_pay_pwd code sent to your own number (a forgotten one)',
        description:
          '`{mobile, code, payPassword, payPasswordConfirmation}`: the number must be your bound one (-4001), the ' +
          'code as every SMS code (-9002 wrong, -9003 expired or used). Clears a pay password lock. Answers `{}`.',
        body: smsResetPayPasswordBody,
      },
    },
    async (request) => {
      await resetPayPasswordBySms(app.ctx, request.viewer, request.body);
      return ok(request, {});
    },
  );
}
