import type { FastifyInstance } from 'fastify';

/**
 * Serves the web app (server rendering and static assets) for every path outside /api.
 * Placeholder until the web-app issue fills it.
 */
export async function webRoutes(app: FastifyInstance): Promise<void> {
  app.get('/', async (_request, reply) => {
    return reply.type('text/html; charset=utf-8').send('<!doctype html><title>Luntan</title><p>Luntan</p>');
  });
}
