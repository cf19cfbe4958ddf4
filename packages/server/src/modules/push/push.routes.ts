import { pushPreferencesBody, pushSubscribeBody, pushUnsubscribeBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { changePreferences, preferences, publicKey, subscribe, unsubscribe } from './push.service.js';

const TAGS = ['push'];

export async function pushRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  api.get(
    '/v3/push/key',
    {
      schema: {
        tags: TAGS,
        summary: "The site's VAPID public key (base64url): PushManager.subscribe's applicationServerKey",
      },
    },
    async (request) => ok(request, await publicKey(ctx)),
  );

  api.post(
    '/v3/push/subscribe',
    {
      onRequest: loginRequired,
      schema: {
        tags: TAGS,
        summary: "Keep this browser's push subscription (PushSubscription.toJSON()) for the signed-in member",
        description:
          'The endpoint must be an https address of a push service the server may reach (never this machine or its ' +
          'network): -4001 with Data.field "endpoint" otherwise; keys.p256dh (65 bytes) and keys.auth (16 bytes) in ' +
          'base64url. Replies, mentions, likes, private messages and financial notices are pushed to it, as the ' +
          "member's switches (push/preferences) allow.",
        body: pushSubscribeBody,
      },
    },
    async (request) =>
      ok(request, await subscribe(ctx, request.viewer, request.body, String(request.headers['user-agent'] ?? ''))),
  );

  api.post(
    '/v3/push/unsubscribe',
    {
      onRequest: loginRequired,
      schema: { tags: TAGS, summary: "Forget this browser's push subscription", body: pushUnsubscribeBody },
    },
    async (request) => ok(request, await unsubscribe(ctx, request.viewer, request.body.endpoint)),
  );

  api.get(
    '/v3/push/preferences',
    {
      onRequest: loginRequired,
      schema: {
        tags: TAGS,
        summary: 'Which kinds of notice are pushed (reply, mention, like, message, financial), and to how many devices',
      },
    },
    async (request) => ok(request, await preferences(ctx, request.viewer)),
  );

  api.post(
    '/v3/push/preferences',
    {
      onRequest: loginRequired,
      schema: { tags: TAGS, summary: 'Switch kinds of pushed notice on or off', body: pushPreferencesBody },
    },
    async (request) => ok(request, await changePreferences(ctx, request.viewer, request.body)),
  );
}
