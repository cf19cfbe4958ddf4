import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, resolveViewer } from '../../access/viewer.js';

/** The most URLs one sitemap file may hold (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/** Paths robots need not visit: the sign-in pages, private pages, the API. */
const DISALLOWED = ['/api/', '/user/', '/my', '/message', '/wallet', '/thread/post', '/admin'];

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function xmlEscape(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** /robots.txt and /sitemap.xml: what search engines read. The sitemap lists what a guest may read. */
export async function seoRoutes(app: FastifyInstance): Promise<void> {
  const ctx = app.ctx;

  app.get('/robots.txt', async (request, reply) => {
    const lines = [
      'User-agent: *',
      ...DISALLOWED.map((p) => `Disallow: ${p}`),
      '',
      `Sitemap: ${origin(request)}/sitemap.xml`,
    ];
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`${lines.join('\n')}\n`);
  });

  app.get('/sitemap.xml', async (request, reply) => {
    const guest = await resolveViewer(ctx.db, null);
    const categories = await ctx.db.selectFrom('categories').select('id').execute();
    const visible = categories.map((c) => c.id).filter((id) => can(guest, 'viewThreads', id));
    const threads =
      visible.length === 0
        ? []
        : await ctx.db
            .selectFrom('threads')
            .select(['id', 'updatedAt', 'lastPostedAt'])
            .where('categoryId', 'in', visible)
            .where('isApproved', '=', 1)
            .where('isDraft', '=', 0)
            .where('deletedAt', 'is', null)
            .orderBy('id', 'desc')
            .limit(SITEMAP_MAX_URLS - 1)
            .execute();
    const base = origin(request);
    const urls = [
      `<url><loc>${xmlEscape(base)}/</loc><changefreq>hourly</changefreq></url>`,
      ...threads.map((t) => {
        const last = t.lastPostedAt > t.updatedAt ? t.lastPostedAt : t.updatedAt;
        return `<url><loc>${xmlEscape(`${base}/thread/${t.id}`)}</loc><lastmod>${xmlEscape(last)}</lastmod></url>`;
      }),
    ];
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n`;
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=600').send(xml);
  });
}
