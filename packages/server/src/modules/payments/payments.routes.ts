import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import { enabledProviders, providerProblems } from './payments.service.js';

/** The payment providers' status for administrators (their callbacks: orders/payment-notices.routes.ts). */
export async function paymentsRoutes(app: FastifyInstance): Promise<void> {
  const tags = ['wallet'];

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/backAdmin/pay/status',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Which payment providers are working now, and which settings each still lacks',
      },
    },
    async (request) => {
      const missing = await providerProblems(app.ctx.db);
      const enabled = await enabledProviders(app.ctx);
      return ok(request, {
        sandbox: { enabled: enabled.has('sandbox'), byEnvironment: app.ctx.config.paymentSandbox },
        alipay: { enabled: enabled.has('alipay'), missing: missing.alipay },
        wxpay: { enabled: enabled.has('wxpay'), missing: missing.wxpay },
      });
    },
  );
}
