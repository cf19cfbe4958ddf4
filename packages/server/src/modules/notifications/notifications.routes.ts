import { notificationDeleteBody, notificationListQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import { deleteNotices, listNotices, unreadCounters } from './message-centre.service.js';

/** The message centre (the family's names): notices, deleting them, the header badge's counters. */
export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['notifications'];

  api.get(
    '/v3/notification',
    {
      onRequest: loginRequired,
      config: { changesState: true },
      schema: {
        tags,
        summary: "The viewer's notices, newest first; listing marks the listed ones read",
        description:
          'filter[type]: system, followed, related (mentions), replied, liked, and the financial types (rewarded, ' +
          'threadrewarded, threadrewardedexpired, receiveredpacket, withdrawal), questioned; several separated by ' +
          'commas. Each item: id, type, category, title, content (plain text), threadId, postId, replyPostId, ' +
          'fromUser, readAt (as before this listing), createdAt.',
        querystring: notificationListQuery,
      },
    },
    async (request) => ok(request, await listNotices(ctx, requireUser(request.viewer).id, request.query)),
  );

  api.post(
    '/v3/notification.delete',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Delete own notices: id is one id or several ("3,4"); -4004 when none of them is yours',
        body: notificationDeleteBody,
      },
    },
    async (request) => ok(request, await deleteNotices(ctx, requireUser(request.viewer).id, request.body.id)),
  );

  api.get(
    '/v3/unreadnotification',
    {
      onRequest: loginRequired,
      schema: { tags, summary: "The header badge's unread counters" },
    },
    async (request) => ok(request, await unreadCounters(ctx, requireUser(request.viewer).id)),
  );
}
