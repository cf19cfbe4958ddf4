import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../../core/api-etag.js';
import { sendKeptPage, type KeptPage } from '../../core/page-cache.js';
import { buildFeed, FeedNotFound, type FeedTarget } from './feeds.service.js';

const FEED_TYPE = 'application/rss+xml; charset=utf-8';
/** Readers poll: a minute in their cache and any shared one, then a conditional GET (ETag) costs a 304. */
const FEED_CACHE_CONTROL = 'public, max-age=60';

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

/**
 * RSS 2.0 feeds of what a guest may read (docs/feeds in README): /rss/latest.xml (the newest threads),
 * /rss/category/<id>.xml (a category's), /rss/thread/<id>.xml (a thread's newest replies). Kept as pages are
 * (core/page-cache.ts: until a write changes what they list, compressed once, shared through Redis), with an ETag.
 * An unknown, hidden or unreadable id, or a closed site, answers the web app's own page for that address (404).
 */
export async function feedsRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;

  /** The web app's answer for an address no feed serves: its not-found page, in the visitor's language. */
  async function notFoundPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const page = await app.inject({
      method: 'GET',
      url: `/rss/not-found`,
      headers: {
        accept: 'text/html',
        cookie: header(request, 'cookie'),
        'user-agent': header(request, 'user-agent'),
        host: header(request, 'host'),
      },
    });
    for (const [name, value] of Object.entries(page.headers)) {
      if (['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'date'].includes(name)) continue;
      if (value !== undefined) reply.header(name, value);
    }
    return reply.code(page.statusCode).send(page.rawPayload);
  }

  function send(request: FastifyRequest, reply: FastifyReply, page: KeptPage): FastifyReply | Promise<FastifyReply> {
    if (etagMatches(request.headers['if-none-match'], page.headers.etag!)) {
      for (const name of ['etag', 'cache-control']) reply.header(name, page.headers[name]!);
      return reply.code(304).send();
    }
    return sendKeptPage(request, reply, page);
  }

  async function serve(request: FastifyRequest, reply: FastifyReply, target: FeedTarget): Promise<FastifyReply> {
    const { pages, versions } = ctx;
    await versions.refresh();
    if ((await ctx.siteGate.get()).closed) return notFoundPage(request, reply);
    // What the feed's bytes depend on: its address and the site's address (the links inside).
    const key = `feed ${JSON.stringify([
      request.url.split('?')[0],
      header(request, 'host'),
      header(request, 'x-forwarded-host'),
      header(request, 'x-forwarded-proto'),
    ])}`;
    const kept = pages.enabled ? await pages.keyOf(key, target.kind === 'thread' ? target.id : null) : null;
    const stored = kept ? await pages.get(kept.key) : undefined;
    if (stored) return send(request, reply.header('x-guest-cache', 'hit'), stored.page);
    let xml: string;
    try {
      xml = await buildFeed(ctx, target, origin(request));
    } catch (error) {
      if (error instanceof FeedNotFound) return notFoundPage(request, reply);
      throw error;
    }
    const headers = {
      'content-type': FEED_TYPE,
      'cache-control': FEED_CACHE_CONTROL,
      etag: `"${createHash('sha1').update(xml).digest('base64url')}"`,
    };
    if (kept) return send(request, reply, await pages.set(kept.key, kept.version, xml, headers));
    if (etagMatches(request.headers['if-none-match'], headers.etag)) {
      return reply.header('etag', headers.etag).header('cache-control', headers['cache-control']).code(304).send();
    }
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    return reply.send(xml);
  }

  app.get('/rss/latest.xml', (request, reply) => serve(request, reply, { kind: 'latest' }));
  app.get<{ Params: { id: string } }>('/rss/category/:id(^\\d{1,9}).xml', (request, reply) =>
    serve(request, reply, { kind: 'category', id: Number(request.params.id) }),
  );
  app.get<{ Params: { id: string } }>('/rss/thread/:id(^\\d{1,9}).xml', (request, reply) =>
    serve(request, reply, { kind: 'thread', id: Number(request.params.id) }),
  );
}
