import { adminMoneyLogQuery, financeChartQuery, walletUpdateBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import {
  financeChart,
  financeStats,
  listOrdersForAdmin,
  listWalletLogsForAdmin,
  listWithdrawalsForAdmin,
  updateWalletByAdmin,
} from './finance.service.js';

/** The administrators' money: wallet adjustments, every user's ledger, orders and withdrawals, the statistics. */
export async function financeRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tags = ['finance', 'admin'];
  const listDescription =
    'filter[userId]; filter[username] (the whole name or its beginning, in any case); filter[startTime] and ' +
    'filter[endTime] (ISO times, or dates meaning the whole UTC day); newest first. Money as strings.';

  api.post(
    '/backAdmin/users/wallet.update',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary:
          "Add to (operateType 1) or subtract from (2) a user's wallet, and/or freeze (walletStatus 1) or unfreeze it (0)",
        description:
          'Recorded in the ledger (30 added, 50 subtracted by an administrator, with the administrator and ' +
          'operateReason). Subtracting more than is available: -10000 and nothing changes. Answers the wallet after.',
        body: walletUpdateBody,
      },
    },
    async (request) => ok(request, await updateWalletByAdmin(app.ctx, requireUser(request.viewer).id, request.body)),
  );

  api.get(
    '/backAdmin/users.wallet.logs',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: "Every user's ledger; filter[type] a change type",
        description: listDescription,
        querystring: adminMoneyLogQuery,
      },
    },
    async (request) => ok(request, await listWalletLogsForAdmin(db, request.query)),
  );

  api.get(
    '/backAdmin/users.order.logs',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Every order (the payer as the user); filter[type] order type, filter[status] order status',
        description: listDescription,
        querystring: adminMoneyLogQuery,
      },
    },
    async (request) => ok(request, await listOrdersForAdmin(db, request.query)),
  );

  api.get(
    '/backAdmin/users.cash.logs',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Every withdrawal; filter[status] withdrawal status',
        description: listDescription,
        querystring: adminMoneyLogQuery,
      },
    },
    async (request) => ok(request, await listWithdrawalsForAdmin(db, request.query)),
  );

  api.get(
    '/statistic/finance.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'The site’s money: income from paid orders, paid-out withdrawals, money held in wallets, profit',
      },
    },
    async (request) => ok(request, await financeStats(db)),
  );

  api.get(
    '/statistic/financeChart.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'The finance figures per day (type 1), week from Monday (2) or month (3), zeros included',
        description:
          'createdAtBegin and createdAtEnd: dates (2026-11-01) or ISO times, UTC days; default the last 60 days; ' +
          'the end not before the beginning, at most three years (-4001). Paid orders count on the day they were ' +
          'paid, orderCount on the day orders were made, withdrawals on the day they were paid out.',
        querystring: financeChartQuery,
      },
    },
    async (request) => ok(request, await financeChart(db, request.query)),
  );
}
