import { Code, OrderStatus, sandboxCompleteBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import {
  InvalidCallbackError,
  isSandboxOn,
  providerByName,
  SANDBOX_SIGNATURE_HEADER,
  sandboxCallback,
  sandboxSecret,
} from '../payments/index.js';
import { applyPaymentNotice } from './payment-notices.service.js';
import { findOrder, orderNotFound } from './orders.service.js';
import { msg } from '../../i18n/index.js';

/** Providers' callbacks (raw bodies: the signatures are over the exact bytes) and the sandbox checkout's decision. */
export async function paymentNoticesRoutes(app: FastifyInstance): Promise<void> {
  const tags = ['wallet'];

  // The callbacks live in their own scope, whose body parser keeps every body as the text it arrived as.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    raw.post(
      '/v3/pay/notify/:provider',
      {
        schema: {
          tags,
          summary: 'A payment provider calls back (sandbox, alipay, wxpay): verified by signature, applied once',
          params: z.object({ provider: z.enum(['sandbox', 'alipay', 'wxpay']) }),
        },
      },
      async (request, reply) => {
        const { provider: name } = request.params as { provider: string };
        const provider = await providerByName(app.ctx, name);
        if (!provider) {
          throw new AppError(Code.RESOURCE_NOT_FOUND, msg('orders.paymentProviderNotEnabled'), { httpStatus: 404 });
        }
        const rawBody = typeof request.body === 'string' ? request.body : '';
        let applied = false;
        try {
          const notice = await provider.verifyCallback({ headers: request.headers, rawBody });
          applied = await applyPaymentNotice(app.ctx, name, notice);
        } catch (err) {
          if (!(err instanceof InvalidCallbackError)) throw err;
          request.log.warn({ provider: name, reason: err.message }, 'a payment callback was refused');
        }
        const answer = provider.answer(applied);
        return reply.status(answer.status).type(answer.contentType).send(answer.body);
      },
    );
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/v3/pay/sandbox/complete',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: "The sandbox checkout's decision (the order's payer): the forum calls its own signed callback",
        body: sandboxCompleteBody,
      },
    },
    async (request) => {
      const user = requireUser(request.viewer);
      if (!(await isSandboxOn(app.ctx))) {
        throw new AppError(Code.PAYMENT_FAILED, msg('orders.sandboxPaymentNotEnabled'));
      }
      const order = await findOrder(app.ctx.db, request.body.orderSn);
      if (!order || order.userId !== user.id) throw orderNotFound();
      const signed = sandboxCallback(
        await sandboxSecret(app.ctx.db),
        { orderSn: order.orderSn, amountCents: Number(order.amountCents) },
        request.body.outcome,
      );
      // Through the same path, parser and checks as any provider's callback.
      const answer = await app.inject({
        method: 'POST',
        url: '/api/v3/pay/notify/sandbox',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signed.signature },
        payload: signed.body,
      });
      if (answer.statusCode !== 200) {
        throw new AppError(Code.PAYMENT_FAILED, msg('orders.paymentCallbackFailed'));
      }
      const after = await findOrder(app.ctx.db, order.orderSn);
      return ok(request, { orderSn: order.orderSn, status: after?.status ?? OrderStatus.PENDING });
    },
  );
}
