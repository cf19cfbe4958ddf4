import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { CLIENT_VERSION } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document, generated from the routes' zod schemas: JSON at /api/docs/json, browsable at /api/docs.
 * Registered before the routes so that it sees every one of them.
 */
export const docsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Luntan API',
        version: CLIENT_VERSION,
        description:
          'Every answer is `{Code, Message, Data, RequestId, RequestTime}`; Code 0 is success, the others are listed in ' +
          'packages/shared/src/codes.ts. Authenticate with `Authorization: Bearer <accessToken>` or the `access_token` cookie.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // The UI's own policy (hashes of its inline scripts) replaces the pages' nonce policy; no forced https upgrade.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
});
