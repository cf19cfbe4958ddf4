import { notificationTplDetailQuery, notificationTplListQuery, notificationTplUpdateBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import { listTemplateGroups, templateDetail, updateTemplateById } from './notification-templates.service.js';

export async function notificationTemplatesRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  api.get(
    '/notification.v2/tpl',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['notifications', 'admin'],
        summary: 'Notification templates grouped by type name, one row per channel (typeStatus)',
        description: 'name: a part of the type name; typeStatus: 1 only channels switched on, 0 only those off.',
        querystring: notificationTplListQuery,
      },
    },
    async (request) => ok(request, await listTemplateGroups(db, request.query)),
  );

  api.get(
    '/notification.v2/tpl/detail',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['notifications', 'admin'],
        summary: "Every channel's template of one type name, with its placeholders (vars)",
        querystring: notificationTplDetailQuery,
      },
    },
    async (request) => ok(request, await templateDetail(db, request.query.typeName)),
  );

  api.post(
    '/backAdmin/notification/tpl/update',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['notifications', 'admin'],
        summary: 'Change a template: status (1 on, 0 off), title, content (only the placeholders of its vars)',
        body: notificationTplUpdateBody,
      },
    },
    async (request) => ok(request, await updateTemplateById(db, request.body)),
  );
}
