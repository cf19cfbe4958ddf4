import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { LOCALE_COOKIE, type Envelope } from '@luntan/shared';
import type { FastifyInstance, FastifyRequest, InjectOptions } from 'fastify';
import { cspNonce } from '../../core/security-headers.js';
import { resolveViewer, tokenFromRequest, type ViewerContext } from '../../access/viewer.js';
import { isGroupRendered, isPaidThreadPage, renderAsHeader, renderAsOf, type RenderAs } from './group-render.js';

/** The contract of packages/web/src/entry-server.tsx (its build: packages/web/dist/server/entry-server.js). */
interface RenderInput {
  url: string;
  /** The nonce every script of the page must carry (the response's Content-Security-Policy names it). */
  nonce: string;
  headers: Record<string, string | string[] | undefined>;
  api: <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Envelope<T>>;
  /** Rendered for a signed-in member's groups: the browser reads the data again as the member after hydration. */
  forGroups?: { groups: { id: number; name: string }[]; isAdmin: boolean };
}
interface RenderResult {
  status: number;
  html: string;
  headers?: Record<string, string>;
}
interface WebRenderer {
  render(input: RenderInput): Promise<RenderResult>;
  /** Loads the page modules ahead of the first visitor. */
  warmUp?: () => Promise<void>;
}

/**
 * Request headers that the in-process API calls of a page render carry over from the visitor. Accept-Language is
 * not among them: the language is the `locale` cookie's, else the site's (packages/shared/src/locale.ts).
 */
const FORWARDED_HEADERS = ['cookie', 'authorization', 'user-agent', 'x-forwarded-for'] as const;

/**
 * Every request header the render reads (the page's address, platform, session and chosen language): a cached
 * page's key.
 */
const PAGE_KEY_HEADERS = ['host', 'x-forwarded-host', 'x-forwarded-proto', 'user-agent', 'cookie'] as const;

/** The guest cache key of a page, or null when the page is a signed-in visitor's (never cached). */
function guestPageKey(request: FastifyRequest): string | null {
  if (request.method !== 'GET' || tokenFromRequest(request) !== null) return null;
  const parts = PAGE_KEY_HEADERS.map((name) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : (value ?? '');
  });
  return `page ${JSON.stringify([request.url, ...parts])}`;
}

/**
 * The key of a page rendered for a set of groups: the same headers but, of the cookies, only the language (the
 * member's session is not read by that render).
 */
function groupPageKey(request: FastifyRequest, renderAs: RenderAs): string {
  const parts = PAGE_KEY_HEADERS.filter((name) => name !== 'cookie').map((name) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : (value ?? '');
  });
  const locale = request.cookies?.[LOCALE_COOKIE] ?? '';
  return `groups ${JSON.stringify([request.url, renderAs.groupIds, locale, ...parts])}`;
}

/** Whether a rendered page may be kept and shared: a plain page, no cookie set, no redirect. */
function keepable(result: RenderResult): boolean {
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
        if (typeof candidate.render !== 'function') return new Error(`${serverEntry} has no render()`);
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

  const apiFor =
    (request: FastifyRequest, renderAs: RenderAs | null): RenderInput['api'] =>
    async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Envelope<T>> => {
      let headers: Record<string, string> = {};
      for (const name of FORWARDED_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      if (renderAs) {
        // As the groups: no session, only the visitor's language.
        delete headers.authorization;
        const locale = request.cookies?.[LOCALE_COOKIE];
        headers.cookie = locale ? `${LOCALE_COOKIE}=${encodeURIComponent(locale)}` : '';
        headers = { ...headers, ...renderAsHeader(renderAs) };
      }
      const options: InjectOptions = { method, url, headers };
      if (method === 'POST') options.payload = (body ?? {}) as InjectOptions['payload'];
      const response = await app.inject(options);
      return response.json<Envelope<T>>();
    };

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

  /** Renders under way, by page key, with the nonce their HTML carries. */
  const inFlight = new Map<string, { since: number; render: Promise<(RenderResult & { nonce: string }) | null> }>();

  app.get('/*', async (request, reply) => {
    const loaded = await loadRenderer();
    if (loaded instanceof Error) {
      return reply.code(503).type('text/html; charset=utf-8').send(missingBuildPage(loaded.message));
    }
    // A guest's page is the guest cache's too (core/guest-cache.ts): the same page for a second, cleared by writes.
    // So is a member's page of the pages rendered once per set of groups (group-render.ts).
    const cache = app.ctx.guestCache;
    const renderAs = cache.enabled ? await groupRenderOf(request) : null;
    const key = !cache.enabled ? null : renderAs ? groupPageKey(request, renderAs) : guestPageKey(request);
    const nonce = cspNonce(reply);
    const stored = key ? cache.get(key) : undefined;
    if (stored !== undefined) {
      // Kept as "nonce\nhtml": the page's scripts get this response's own nonce.
      const cut = stored.indexOf('\n');
      return reply
        .header('cache-control', 'no-store')
        .header('x-guest-cache', 'hit')
        .type('text/html; charset=utf-8')
        .send(stored.slice(cut + 1).replaceAll(stored.slice(0, cut), nonce));
    }
    const since = cache.current();
    // Visitors asking for the same page while it renders wait for that render instead of starting their own (when
    // a kept page expires under load, one render serves them all).
    // Only a render that began after the last write is shared (as only such a render is kept).
    const under = key ? inFlight.get(key) : undefined;
    const rendering = under && under.since === since ? under.render : undefined;
    if (rendering) {
      const shared = await rendering;
      if (shared && keepable(shared)) {
        return reply
          .header('cache-control', 'no-store')
          .header('x-guest-cache', 'shared')
          .type('text/html; charset=utf-8')
          .send(shared.html.replaceAll(shared.nonce, nonce));
      }
    }
    const render = loaded
      .render({
        url: request.url,
        nonce,
        headers: request.headers,
        api: apiFor(request, renderAs),
        ...(renderAs ? { forGroups: { groups: renderAs.viewer.groups, isAdmin: renderAs.viewer.isAdmin } } : {}),
      })
      .then((rendered) => ({ ...rendered, nonce }));
    if (key && !rendering) {
      const entry = { since, render: render.catch(() => null) };
      inFlight.set(key, entry);
      void entry.render.finally(() => {
        if (inFlight.get(key) === entry) inFlight.delete(key);
      });
    }
    const result = await render;
    if (key && keepable(result)) {
      cache.set(key, since, `${nonce}\n${result.html}`);
      reply.header('x-guest-cache', 'miss');
    }
    reply.code(result.status);
    for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
    if (result.status >= 300 && result.status < 400) return reply.send();
    return reply.type('text/html; charset=utf-8').send(result.html);
  });
}
