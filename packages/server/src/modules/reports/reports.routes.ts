import { reportBatchBody, reportCreateBody, reportListQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly, loginRequired } from '../../access/guards.js';
import { createReport, decideReportsBatch, listReportsForAdmin } from './reports.service.js';

/** Reports: members report users, threads and replies; the back office handles or ignores them. */
export async function reportsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.post(
    '/v3/reports',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['reports'],
        summary: 'Report a user (type 0, userId), a thread (1, threadId) or a reply (2, postId) with a reason',
        description:
          'The target must exist and be visible to the reporter (-4004; a thread without thread.viewPosts -4002). ' +
          'One open report per reporter and target: a second is -4003 until an administrator decides the first. ' +
          'Reporting oneself or one’s own content is -4001.',
        body: reportCreateBody,
      },
    },
    async (request) => ok(request, await createReport(ctx, request.viewer, request.body)),
  );

  api.get(
    '/backAdmin/reports',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['reports', 'admin'],
        summary: 'Reports, newest first: filter[status] 0 open (default), 1 handled, 2 ignored; filter[type] 0/1/2',
        querystring: reportListQuery,
      },
    },
    async (request) => ok(request, await listReportsForAdmin(ctx, request.query)),
  );

  api.post(
    '/backAdmin/reports/batch',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['reports', 'admin'],
        summary: 'Handle (status 1) or ignore (2) open reports, with an optional remark; each reporter is told',
        description:
          'ids as an array or "1,2". Only open reports change (a conditional update): Data.updated lists those this ' +
          'call decided; ids already decided or unknown are left out.',
        body: reportBatchBody,
      },
    },
    async (request) => ok(request, await decideReportsBatch(ctx, request.viewer, request.body)),
  );
}
