import { cashCreateBody, cashListQuery, cashReviewBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { requestLocale } from '../../core/i18n.js';
import { adminOnly, loginRequired } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import { applyForWithdrawal, listMyWithdrawals, reviewWithdrawals } from './withdrawals.service.js';

/** Withdrawals: a member applies and lists theirs; administrators review them (docs/money.md). */
export async function withdrawalsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['wallet'];

  api.post(
    '/v3/wallet/cash',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Apply for a withdrawal: the amount and its fee are frozen until an administrator decides',
        description:
          'Needs cash.create (-4002). The site settings cashMinSum, cashMaxSum and cashSumLimit (per UTC day) bound ' +
          'it (-4001, Data.field cashApplyAmount); the fee is cashRate percent, rounded up to a cent. Not enough ' +
          'money or a frozen wallet: -10000 (Data.reason balance / frozen), and nothing is recorded.',
        body: cashCreateBody,
      },
    },
    async (request) => ok(request, await applyForWithdrawal(app.ctx, request.viewer, request.body)),
  );

  api.get(
    '/v3/wallet/cash',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'My withdrawals, newest first; filter[cashStatus]', querystring: cashListQuery },
    },
    async (request) => ok(request, await listMyWithdrawals(app.ctx.db, request.viewer, request.query)),
  );

  api.post(
    '/backAdmin/wallet.cash.review',
    {
      onRequest: adminOnly,
      schema: {
        tags: [...tags, 'admin'],
        summary:
          'Decide withdrawals: 3 reject (money returned), 2 approve (paid out by cashPayoutProvider, or wait), 5 mark paid',
        description:
          'Each id is decided on its own and at most once: Data.succeeded lists those decided, Data.failed the others ' +
          'with a reason (notFound, status, balance, payout) and a sentence. Reject applies to pending (1) and approved ' +
          '(2) withdrawals, approve to pending ones, mark paid to approved ones. With a payout provider an approved ' +
          'withdrawal becomes paid (5) or, refused by the provider, failed (6, money returned; reported in failed).',
        body: cashReviewBody,
      },
    },
    async (request) =>
      ok(
        request,
        await reviewWithdrawals(app.ctx, requireUser(request.viewer).id, request.body, requestLocale(request)),
      ),
  );
}
