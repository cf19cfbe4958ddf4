import { apiKeyCreateBody, apiKeyIdParams } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';

const TAGS = ['api keys', 'admin'];

export async function apiKeysRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  api.get(
    '/backAdmin/apikeys',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'The API keys (never the keys themselves), with their last use; revoked ones marked',
      },
    },
    async (request) => ok(request, await listApiKeys(db)),
  );

  api.post(
    '/backAdmin/apikeys',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'Make an API key: name, scope (read, write, admin), userId (the member it acts as; default: you)',
        description:
          'Answers the key (`lt_` and 40 characters) in `Data.key`, this once: only its SHA-256 is kept. Send it as ' +
          '`Authorization: Bearer lt_…`.',
        body: apiKeyCreateBody,
      },
    },
    async (request) => ok(request, await createApiKey(db, request.viewer, request.body)),
  );

  api.delete(
    '/backAdmin/apikeys/:id',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'Revoke an API key: it stops working at once, in every process',
        params: apiKeyIdParams,
      },
    },
    async (request) => ok(request, await revokeApiKey(db, request.params.id)),
  );
}
