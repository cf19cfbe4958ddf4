import { topicsListQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { listTopicsFor } from './topics.service.js';

export async function topicsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    '/v3/topics.list',
    {
      config: { guestCache: true },
      schema: {
        tags: ['topics'],
        summary: 'List topics (#name#)',
        description:
          'filter[content]: topics whose name holds it (the exact name first, then names starting with it; the ' +
          'answer then tells isNewTopic); filter[hot]=1: topics with visible threads, most threads then most views ' +
          'first; filter[topicId]: one topic, its threadCount and viewCount counted afresh; filter[recommended] 0|1. ' +
          "Newest first otherwise. A topic's threads: thread.list with filter[topicId].",
        querystring: topicsListQuery,
      },
    },
    async (request) => ok(request, await listTopicsFor(ctx, request.viewer, request.query)),
  );
}
