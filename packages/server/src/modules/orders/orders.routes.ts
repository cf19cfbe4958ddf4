import { orderCreateBody, orderDetailQuery, orderListQuery, payMethodsQuery, tradePayBody } from '@luntan/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import { offeredTypes } from '../payments/index.js';
import { readSiteSettings } from '../settings/index.js';
import { createOrder } from './order-create.service.js';
import { payOrder } from './order-pay.service.js';
import { listOrders, readOrder } from './orders.service.js';
import { formatMoney, parseMoney } from '@luntan/shared';

/** The site's own address for providers' callbacks and return pages: siteUrl when set, else how we were reached. */
export async function siteOrigin(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const site = await readSiteSettings(app.ctx.db);
  const configured = String(site.siteUrl ?? '').replace(/\/+$/, '');
  return configured || `${request.protocol}://${request.host}`;
}

/** Orders and paying them (docs/money.md). */
export async function ordersRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tags = ['wallet'];

  api.post(
    '/v3/order.create',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Place an order: type 1 joining, 2 reward (amount), 3 paid thread, 4 paid group, 30 recharge (amount)',
        description: 'Needs order.create (joining does not). The order expires unpaid after 10 minutes.',
        body: orderCreateBody,
      },
    },
    async (request) => ok(request, await createOrder(app.ctx, request.viewer, request.body)),
  );

  api.get(
    '/v3/order.detail',
    { onRequest: loginRequired, schema: { tags, summary: 'One of my orders', querystring: orderDetailQuery } },
    async (request) => ok(request, await readOrder(db, request.viewer, request.query.orderSn)),
  );

  api.get(
    '/v3/order.list',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'My orders, newest first (filter[type], filter[status])', querystring: orderListQuery },
    },
    async (request) => ok(request, await listOrders(db, requireUser(request.viewer).id, request.query)),
  );

  api.post(
    '/v3/trade/pay/order',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Pay an order: 20 from the wallet (payPassword), or a provider (answers payUrl or qrCode)',
        description:
          'Needs trade.pay.order. -4004 not my order; -10000 paid already, not enough money or a wrong pay password ' +
          '(Data.triesLeft); -4029 locked for 10 minutes after five wrong pay passwords; -4010 expired.',
        body: tradePayBody,
      },
    },
    async (request) =>
      ok(request, await payOrder(app.ctx, request.viewer, request.body, await siteOrigin(app, request), request.ip)),
  );

  api.get(
    '/v3/pay/methods',
    {
      schema: {
        tags,
        summary: 'How the site takes payments now on a platform (pc, h5), and the recharge limits',
        querystring: payMethodsQuery,
      },
    },
    async (request) => {
      const site = await readSiteSettings(db);
      const money = (key: string, fallback: number) => formatMoney(parseMoney(String(site[key] ?? '')) ?? fallback);
      return ok(request, {
        wallet: true,
        types: await offeredTypes(app.ctx, request.query.platform),
        recharge: { minAmount: money('rechargeMinSum', 100), maxAmount: money('rechargeMaxSum', 1_000_000) },
      });
    },
  );
}
