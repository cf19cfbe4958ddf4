import pLimit from 'p-limit';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { LOCALE_COOKIE, platformFromUserAgent, type Envelope } from '@luntan/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendKeptPage, type KeptPage } from '../../core/page-cache.js';
import { pageCsp } from '../../core/security-headers.js';
import { resolveViewer, tokenFromRequest, type ViewerContext } from '../../access/viewer.js';
import { isGroupRendered, isPaidThreadPage, renderAsOf, threadOfPage, type RenderAs } from './group-render.js';
import { pageApi } from './page-api.js';
import { streamPage, type RenderedPage } from './stream-page.js';

/** The contract of packages/web/src/entry-server.tsx (its build: packages/web/dist/server/entry-server.js). */
interface RenderInput {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  api: <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Envelope<T>>;
  /** Rendered for a signed-in member's groups: the browser reads the data again as the member after hydration. */
  forGroups?: { groups: { id: number; name: string }[]; isAdmin: boolean };
}
interface WebRenderer {
  renderPage(input: RenderInput): Promise<RenderedPage>;
  /** Loads the page modules ahead of the first visitor. */
  warmUp?: () => Promise<void>;
}

/**
 * What a page's render reads of the request besides its address: the site's address (OpenGraph links), the layout
 * the user agent gets (platformFromUserAgent: the render reads nothing else of it) and the chosen language (the
 * only cookie a guest's or a group's render reads). A kept page's key, so that every phone, every desktop browser
 * and every guest with unrelated cookies share one page.
 */
function renderedFor(request: FastifyRequest): string[] {
  const header = (name: string): string => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : (value ?? '');
  };
  return [
    header('host'),
    header('x-forwarded-host'),
    header('x-forwarded-proto'),
    platformFromUserAgent(header('user-agent')),
    request.cookies?.[LOCALE_COOKIE] ?? '',
  ];
}

/** The guest cache key of a page, or null when the page is a signed-in visitor's (never cached). */
function guestPageKey(request: FastifyRequest): string | null {
  if (request.method !== 'GET' || tokenFromRequest(request) !== null) return null;
  return `page ${JSON.stringify([request.url, ...renderedFor(request)])}`;
}

/** The key of a page rendered for a set of groups (the member's session is not read by that render). */
function groupPageKey(request: FastifyRequest, renderAs: RenderAs): string {
  return `groups ${JSON.stringify([request.url, renderAs.groupIds, ...renderedFor(request)])}`;
}

/**
 * A rendered page with its Content-Security-Policy among its headers (core/security-headers.ts, pageCsp): the same for
 * every page of a build and site settings, so it is kept with the page and sent with its bytes as they are.
 */
function withPagePolicy(result: RenderedPage): RenderedPage {
  if (!result.scripts) return result;
  return { ...result, headers: { ...result.headers, 'content-security-policy': pageCsp(result.scripts) } };
}

/** Whether a rendered page may be kept and shared: a plain page, no cookie set, no redirect. */
function keepable(result: RenderedPage): boolean {
  const headers = result.headers ?? {};
  return result.status === 200 && !('set-cookie' in headers) && !('location' in headers);
}

/** packages/web/dist, found through the workspace package (or next to this package in the source tree). */
function webDistDir(): string {
  try {
    const require = createRequire(import.meta.url);
    return path.join(path.dirname(require.resolve('@luntan/web/package.json')), 'dist');
  } catch {
    // dist/modules/web/web.routes.js → packages/web/dist
    return fileURLToPath(new URL('../../../../web/dist', import.meta.url));
  }
}

function missingBuildPage(detail: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Luntan: web app not built</title>' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
    '<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.6">' +
    '<h1>The web app is not built</h1><p>The API runs (see <a href="/api/docs">/api/docs</a>), but the pages ' +
    'need the web build. Run <code>npm run build</code> at the repository root and restart the server.</p>' +
    `<pre style="white-space:pre-wrap;color:#666">${detail.replace(/[<>&]/g, '')}</pre></body></html>`
  );
}

/**
 * Serves the web app for every path outside /api: the hashed client files under /assets/ (cached for a year),
 * the public files under /static/, and every other GET rendered on the server by the web app's SSR bundle, whose
 * loaders reach the API in-process (app.inject) with the visitor's cookie and authorization.
 */
export async function webRoutes(app: FastifyInstance): Promise<void> {
  const dist = webDistDir();
  const clientDir = path.join(dist, 'client');
  const serverEntry = path.join(dist, 'server', 'entry-server.js');

  for (const [folder, prefix, immutable] of [
    ['assets', '/assets/', true],
    ['static', '/static/', false],
  ] as const) {
    const root = path.join(clientDir, folder);
    if (!fs.existsSync(root)) continue;
    await app.register(fastifyStatic, {
      root,
      prefix,
      decorateReply: false,
      index: false,
      // Hashed names never change content; public files may, so they are revalidated daily.
      immutable,
      maxAge: immutable ? '365d' : '1d',
      // The build wrote `.br` and `.gz` next to every text file (packages/web/vite.config.ts): sent as they are to a
      // client that accepts them, the plain file otherwise.
      preCompressed: true,
      // The same address answers br, gzip or plain bytes: a shared cache must keep them apart.
      setHeaders: (res) => res.setHeader('vary', 'accept-encoding'),
    });
  }

  let renderer: Promise<WebRenderer | Error> | null = null;
  const loadRenderer = (): Promise<WebRenderer | Error> => {
    renderer ??= import(pathToFileURL(serverEntry).href).then(
      (module: unknown) => {
        const candidate = module as Partial<WebRenderer>;
        if (typeof candidate.renderPage !== 'function') return new Error(`${serverEntry} has no renderPage()`);
        return candidate as WebRenderer;
      },
      (error: unknown) => {
        app.log.error({ err: error, serverEntry }, 'the web app server bundle could not be loaded');
        renderer = null; // try again on the next request (e.g. after a build)
        return error instanceof Error ? error : new Error(String(error));
      },
    );
    return renderer;
  };

  // Load the renderer and its pages in the background once the server is ready, so the first visitor does not wait.
  app.addHook('onReady', async () => {
    void loadRenderer()
      .then((loaded) => (loaded instanceof Error ? undefined : loaded.warmUp?.()))
      .catch((error: unknown) => app.log.warn({ err: error }, 'web app warm-up failed'));
  });

  /** The groups to render this member's page for, or null (a guest, another page, a member who must be stopped). */
  const groupRenderOf = async (request: FastifyRequest): Promise<(RenderAs & { viewer: ViewerContext }) | null> => {
    const token = tokenFromRequest(request);
    if (token === null || request.method !== 'GET' || !isGroupRendered(request.url.split('?')[0]!)) return null;
    const { ctx } = app;
    await ctx.versions.refresh();
    const viewer = await resolveViewer(ctx.db, token, ctx.viewers);
    const renderAs = renderAsOf(viewer, (await ctx.siteGate.get()).siteMode);
    if (!renderAs || (await isPaidThreadPage(ctx.db, request.url))) return null;
    return { ...renderAs, viewer };
  };

  /** Renders under way, by kept-page key (which carries the `pages` number it was read under). */
  const inFlight = new Map<string, Promise<KeptPage | null>>();
  /**
   * Pages rendered at once (RENDER_CONCURRENCY), the others waiting in order of arrival: each render then finishes
   * in a few of its own times instead of sharing the CPU with every visitor's (docs/performance.md, "Renders in
   * turn"). Kept pages are sent without waiting.
   */
  const renders = pLimit(app.ctx.config.renderConcurrency);

  app.get('/*', async (request, reply) => {
    const loaded = await loadRenderer();
    if (loaded instanceof Error) {
      return reply.code(503).type('text/html; charset=utf-8').send(missingBuildPage(loaded.message));
    }
    // A guest's page is kept until the next write (core/page-cache.ts), and so is a member's page of the pages
    // rendered once per set of groups (group-render.ts).
    const { pages, versions } = app.ctx;
    const renderAs = pages.enabled ? await groupRenderOf(request) : null;
    const pageKey = !pages.enabled ? null : renderAs ? groupPageKey(request, renderAs) : guestPageKey(request);
    // The counters first: a page kept under an older `pages` number is stale (groupRenderOf has read them already).
    if (pageKey && !renderAs) await versions.refresh();
    const kept = pageKey ? await pages.keyOf(pageKey, threadOfPage(request.url)) : null;
    const stored = kept ? await pages.get(kept.key) : undefined;
    if (stored) {
      reply.header('x-guest-cache', 'hit').header('x-page-source', stored.source);
      return sendKeptPage(request, reply, stored.page);
    }
    // Visitors asking for the same page while it renders wait for that render instead of starting their own (when
    // a write made every kept page stale, one render serves them all).
    const rendering = kept ? inFlight.get(kept.key) : undefined;
    if (rendering) {
      const shared = await rendering;
      if (shared) return sendKeptPage(request, reply.header('x-guest-cache', 'shared'), shared);
    }
    let share: (page: KeptPage | null) => void = () => undefined;
    if (kept && !rendering) {
      const entry = new Promise<KeptPage | null>((resolve) => (share = resolve));
      inFlight.set(kept.key, entry);
      void entry.finally(() => {
        if (inFlight.get(kept.key) === entry) inFlight.delete(kept.key);
      });
    }
    try {
      await renders(async () => {
        request.log.debug({ url: request.url, waiting: renders.pendingCount }, 'page render started');
        const page = withPagePolicy(
          await loaded.renderPage({
            url: request.url,
            headers: request.headers,
            api: pageApi(app, request, renderAs),
            ...(renderAs ? { forGroups: { groups: renderAs.viewer.groups, isAdmin: renderAs.viewer.isAdmin } } : {}),
          }),
        );
        const keep = kept && keepable(page) ? kept : null;
        const redirect = page.status >= 300 && page.status < 400;
        if (request.method !== 'GET' || redirect || (page.headers && 'set-cookie' in page.headers)) {
          // No body worth streaming (a redirect, a HEAD request), or an answer that sets a cookie: sent whole.
          reply.code(page.status);
          for (const [name, value] of Object.entries(page.headers ?? {})) reply.header(name, value);
          if (redirect) return void reply.send();
          return void reply.type('text/html; charset=utf-8').send(page.head + page.rest().join(''));
        }
        if (keep) reply.header('x-guest-cache', 'miss');
        // Kept from what was streamed: its encoding as sent (compressed once), the other one made now.
        await streamPage(
          request,
          reply,
          page,
          keep
            ? async ({ plain, encoding, encoded }) =>
                share(
                  await pages.set(
                    keep.key,
                    keep.version,
                    plain,
                    page.headers ?? {},
                    encoding ? { [encoding]: encoded } : {},
                  ),
                )
            : undefined,
        );
        request.log.debug({ url: request.url }, 'page render done');
      });
      return reply;
    } finally {
      share(null);
    }
  });
}
