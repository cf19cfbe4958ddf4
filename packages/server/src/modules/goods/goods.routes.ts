import { goodsAnalysisBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { AttemptLimiter } from '../../core/rate-limit.js';
import { loginRequired } from '../../access/guards.js';
import { analyseGoods, GOODS_ANALYSES_PER_HOUR, type GoodsAnalysisDeps } from './goods-analysis.service.js';

export async function goodsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config, limits } = app.ctx;
  const deps: GoodsAnalysisDeps = {
    allowPrivate: config.allowPrivateFetch,
    timeoutMs: config.goodsFetchTimeoutMs,
    limiter: new AttemptLimiter(limits.store, 'goods_analysis', GOODS_ANALYSES_PER_HOUR, 3600),
  };

  api.post(
    '/v3/goods/analysis',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: "Read a product page's details for the goods card (part 104): {address}",
        description:
          'Needs thread.insertGoods in at least one category; at most 30 per member per hour (-4029). The page is ' +
          'fetched within 5 s (GOODS_FETCH_TIMEOUT_MS), at most 1 MB of it, only http(s) and only text/html; an ' +
          'address on a loopback, private or link-local network (also after a redirect or through DNS) is refused ' +
          'with -4001 (Data.field "address") unless the server runs with ALLOW_PRIVATE_FETCH=1. Reads the page\'s ' +
          'schema.org Product JSON-LD (name, image, offers.price), then OpenGraph, then <title>. A page that cannot ' +
          'be read answers -5004 with a sentence: the poster then types the fields by hand.',
        body: goodsAnalysisBody,
      },
    },
    async (request) => ok(request, await analyseGoods(deps, request.viewer, request.body.address)),
  );
}
