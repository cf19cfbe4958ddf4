import type { FastifyPluginAsync } from 'fastify';
import { findLegacyTarget } from './legacy-redirects.repository.js';

/**
 * An imported Discuz! Q site's file addresses (`/storage/attachments/2021/01/30/<name>.png`, `/storage/avatars/000/
 * 00/00/01.png`) answer a permanent redirect to where the importer put the file (docs/discuzq.md), so images linked
 * from other sites and search engines keep working. What was not imported is a plain 404.
 */
export const legacyRedirectsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/storage/*', async (request, reply) => {
    const raw = request.url.split('?')[0]!;
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    const target = path.length <= 500 ? await findLegacyTarget(app.ctx.db, path) : undefined;
    if (!target) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply.code(301).header('cache-control', 'public, max-age=86400').redirect(target, 301);
  });
};
