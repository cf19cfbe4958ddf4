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
          'packages/shared/src/codes.ts. Authenticate with `Authorization: Bearer <accessToken>` or the `access_token` cookie. ' +
          'Programs use an API key made by an administrator (the back office, or POST /api/backAdmin/apikeys): ' +
          '`Authorization: Bearer lt_<40 characters>`. A key acts as the member it names (or the administrator who made ' +
          'it) within its scope: `read` may only GET (-4002 otherwise), `write` may call everything but the back office ' +
          '(/api/backAdmin and the other administrator calls: -4002), `admin` everything its member may. Each key has its ' +
          'own budget of requests per minute (RATE_LIMIT_API_KEY, default 600; -4029 beyond it) and stops working the ' +
          'moment it is revoked, in every process.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session token (username.login) ' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'lt_<40 characters>',
            description: 'An API key (read, write or admin scope): POST /api/backAdmin/apikeys',
          },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
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
