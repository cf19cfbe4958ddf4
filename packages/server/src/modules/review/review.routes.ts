import { reviewListQuery, reviewSubmitBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import { postQueue, submitReview, threadQueue } from './review.service.js';

export async function reviewRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    '/backAdmin/manage.thread.list',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['review', 'admin'],
        summary:
          'Threads held for review (filter[isApproved] 0, default) or ignored (2), newest first, with their body',
        querystring: reviewListQuery,
      },
    },
    async (request) => ok(request, await threadQueue(ctx, request.viewer, request.query)),
  );

  api.get(
    '/backAdmin/manage.posts.list',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['review', 'admin'],
        summary: 'Replies and comments held for review (filter[isApproved] 0, default) or ignored (2), newest first',
        querystring: reviewListQuery,
      },
    },
    async (request) => ok(request, await postQueue(ctx, request.query)),
  );

  api.post(
    '/backAdmin/manage.submit.review',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['review', 'admin'],
        summary: 'Approve, ignore or delete held threads or replies (type thread|post, ids as an array or "1,2")',
        description:
          'All or none: an id that does not exist is -4004, one that is not held (already approved) is -4001. ' +
          'Approving counts the thread in its category and the reply in its thread; ignoring leaves the item out of ' +
          'sight (is_approved 2); deleting hides it as thread.delete and posts.update do.',
        body: reviewSubmitBody,
      },
    },
    async (request) => ok(request, await submitReview(ctx, request.viewer, request.body)),
  );
}
