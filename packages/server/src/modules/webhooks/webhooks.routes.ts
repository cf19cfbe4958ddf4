import { webhookCreateBody, webhookIdBody, webhookIdQuery, webhookUpdateBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import {
  changeWebhook,
  createWebhook,
  listWebhookDeliveries,
  listWebhooksForAdmin,
  queuePing,
  removeWebhook,
  type WebhooksDeps,
} from './webhooks.service.js';

const TAGS = ['webhooks', 'admin'];
const REFUSED =
  'A URL whose host is (or resolves to) a loopback, private, link-local, unspecified or carrier-grade NAT address ' +
  'is refused with -4001 naming the address (Data.field "url", Data.address), unless the server runs with ' +
  'ALLOW_PRIVATE_FETCH=1; deliveries check again (DNS may change) and record a refusal as their error.';

export async function webhooksRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, config, webhooks: dispatcher } = app.ctx;
  const deps: WebhooksDeps = { db, allowPrivateFetch: config.allowPrivateFetch };

  api.get(
    '/backAdmin/webhooks',
    {
      onRequest: adminOnly,
      schema: { tags: TAGS, summary: 'The outgoing webhooks (never their secrets), with their newest delivery status' },
    },
    async (request) => ok(request, await listWebhooksForAdmin(db)),
  );

  api.post(
    '/backAdmin/webhooks',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'Create a webhook: url, secret (at least 12 characters), events, enabled',
        description:
          'Each delivery is a JSON POST of {id, event, createdAt, data} with X-Luntan-Event, X-Luntan-Delivery and ' +
          'X-Luntan-Signature: sha256=<HMAC-SHA256 of the body with the secret, hex>. ' +
          REFUSED,
        body: webhookCreateBody,
      },
    },
    async (request) => ok(request, await createWebhook(deps, request.body)),
  );

  api.post(
    '/backAdmin/webhooks.update',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'Change a webhook: what is given changes; an empty or absent secret keeps the stored one',
        description: REFUSED,
        body: webhookUpdateBody,
      },
    },
    async (request) => ok(request, await changeWebhook(deps, request.body)),
  );

  api.post(
    '/backAdmin/webhooks.delete',
    {
      onRequest: adminOnly,
      schema: { tags: TAGS, summary: 'Delete a webhook and its deliveries', body: webhookIdBody },
    },
    async (request) => {
      await removeWebhook(db, request.body.id);
      return ok(request, {});
    },
  );

  api.get(
    '/backAdmin/webhooks/deliveries',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: "A webhook's recent deliveries (the newest 50), newest first, with status, attempts and last answer",
        querystring: webhookIdQuery,
      },
    },
    async (request) => ok(request, await listWebhookDeliveries(db, request.query.id)),
  );

  api.post(
    '/backAdmin/webhooks.ping',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'Send the test event "ping" to a webhook now (switched off or not); answers the delivery id and uuid',
        body: webhookIdBody,
      },
    },
    async (request) => {
      const queued = await queuePing(db, request.body.id);
      dispatcher.kick();
      return ok(request, queued);
    },
  );
}
