import { LOCALE_COOKIE, resolveLocale, type Envelope, type Forum, type Locale, type Viewer } from '@luntan/shared';
import type { i18n as I18n, TFunction } from 'i18next';
import type { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import {
  createStaticRouter,
  isRouteErrorResponse,
  StaticRouterProvider,
  UNSAFE_mapRouteProperties as mapRouteProperties,
  type StaticHandlerContext,
} from 'react-router';
import { createServerApiClient } from './api/client';
import type { ApiResult } from './api/dispatcher';
import { cachedForum, forumKey } from './api/queries';
import type { AppContext } from './app-context';
import { AppProviders } from './app-providers';
import { scriptSafeJson, type BootState } from './boot-state';
import { CATALOGUE_SOURCES, createI18n, htmlLang } from './i18n';
import { rememberedT } from './i18n/use-translation';
import { platformFromUserAgent } from './platform/platform';
import { createQueryClient } from './query-client';
import { createRoutes } from './route-table';
import { handle as notFoundHandle } from './routes/not-found';
import { documentTitle, isNotFoundMatch, pageHead, shownMatches } from './routing/handle';
import { ROUTE_MODULES } from './routing/route-modules';
import { staticHandlers } from './routing/static-handlers';
import { loadImportMap, loadManifest, pageAssets } from './server/assets';
import { dehydratePage } from './server/dehydrate';
import { renderDocumentHead, renderDocumentRest } from './server/document';

export interface RenderInput {
  /** Path and query of the request, e.g. `/search?keyword=x`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The server's in-process API (forwards the visitor's cookie and authorization). */
  api: <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Envelope<T>>;
  /**
   * The page is rendered for a signed-in member's groups, its API calls made as those groups (the server's
   * modules/web/group-render.ts): the member's own bits are left out, shown by the browser after hydration.
   */
  forGroups?: { groups: { id: number; name: string }[]; isAdmin: boolean };
}

export interface RenderResult {
  status: number;
  html: string;
  headers?: Record<string, string>;
  /**
   * What the page runs that the server's Content-Security-Policy must allow (core/security-headers.ts): the text of
   * each inline script we placed (the import map), and the statistics snippet as placed. The same for every page of a
   * build and settings, so the policy is too. Absent on a redirect.
   */
  scripts?: PageScripts;
}

export interface PageScripts {
  inline: string[];
  siteStat: string;
}

const DEFAULT_FAVICON = '/static/favicon.svg';

function header(headers: RenderInput['headers'], name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** `https://host` of the request (behind a proxy, its forwarded protocol), for OpenGraph's absolute URLs. */
function siteOrigin(headers: RenderInput['headers']): string {
  const host = header(headers, 'x-forwarded-host') ?? header(headers, 'host');
  if (!host || !/^[\w.:[\]-]+$/.test(host)) return '';
  const proto = (header(headers, 'x-forwarded-proto') ?? 'http').split(',')[0]!.trim();
  return `${proto === 'https' ? 'https' : 'http'}://${host}`;
}

function absoluteUrl(path: string, origin: string): string {
  if (!path || /^https?:\/\//.test(path)) return path;
  return origin && path.startsWith('/') ? origin + path : '';
}

/**
 * The router's hydration data, as StaticRouterProvider would write it, but outside the React root and as a JSON data
 * block (entry-client.tsx hands it to the router), not as code.
 */
function routerStateJson(context: StaticHandlerContext): string {
  const errors: Record<string, unknown> | null = context.errors ? {} : null;
  for (const [id, error] of Object.entries(context.errors ?? {})) {
    if (isRouteErrorResponse(error)) errors![id] = { ...error, __type: 'RouteErrorResponse' };
    else if (error instanceof Error) errors![id] = { message: error.message, __type: 'Error' };
    else errors![id] = error;
  }
  const data = { loaderData: context.loaderData, actionData: context.actionData, errors };
  return scriptSafeJson(data);
}

/**
 * A page rendered for a member's groups read the forum as no one: its viewer becomes a member of those groups with no
 * name yet, so the page is laid out as a signed-in member's (the browser then reads who they are).
 */
function standInForMember(queryClient: QueryClient, member: NonNullable<RenderInput['forGroups']>): void {
  const result = queryClient.getQueryData<ApiResult<Forum>>(forumKey);
  const forum = result && result.Code === 0 ? (result.Data as Forum) : null;
  if (!forum || forum.user) return;
  const user: Viewer = {
    userId: 0,
    username: '',
    nickname: '',
    avatarUrl: '',
    status: 0,
    groups: member.groups,
    isAdmin: member.isAdmin,
    rejectReason: '',
    paid: true,
    paidUntil: null,
    mobile: '',
  };
  queryClient.setQueryData<ApiResult<Forum>>(forumKey, { ...(result as Envelope<Forum>), Data: { ...forum, user } });
}

/** One i18next instance per language for the process: a render only reads it (nothing changes its language). */
const i18ns = new Map<Locale, I18n>();
function i18nFor(locale: Locale): I18n {
  let i18n = i18ns.get(locale);
  if (!i18n) i18ns.set(locale, (i18n = createI18n(locale)));
  return i18n;
}

/**
 * The route table and its handlers, made once for the process (building them took about 1.3 ms a page, and each
 * fresh table loaded its lazy pages again): a request's query client and API reach its loaders as their `context`.
 * The guards' "please log in" toast is the browser's (on the server a guard redirects with a cookie). A page is
 * matched by the handler of its path's first segment (routing/static-handlers.ts).
 */
const handlers = staticHandlers(
  createRoutes(
    ({ context }) => context as unknown as AppContext,
    () => '',
  ),
);

type DataRoute = StaticHandlerContext['matches'][number]['route'];

/** Each matched route as the router renders it (its Component made an element), with what it was made from. */
const routesAsRendered = new WeakMap<DataRoute, { component: unknown; errorBoundary: unknown; route: DataRoute }>();

/**
 * A matched route as React Router's static router renders it (`mapRouteProperties`: its Component, ErrorBoundary and
 * HydrateFallback made elements), made once per route, and again once its lazy module has filled it in.
 */
function routeAsRendered(route: DataRoute): DataRoute {
  const kept = routesAsRendered.get(route);
  if (kept && kept.component === route.Component && kept.errorBoundary === route.ErrorBoundary) return kept.route;
  const rendered = { ...route, ...mapRouteProperties(route) } as DataRoute;
  routesAsRendered.set(route, { component: route.Component, errorBoundary: route.ErrorBoundary, route: rendered });
  return rendered;
}

/**
 * The router a page renders with. `createStaticRouter` converts the whole route table (every page and the back office)
 * for every page, to render the few routes matched (1.5 % of a thread page's CPU, docs/performance.md, "seventh part").
 * Given an empty table and matches whose routes are converted already, it converts nothing: rendering reads the
 * matches' routes (its manifest, empty here, would only override them). No matches (none seen): the whole table.
 */
function staticRouterFor(context: StaticHandlerContext): {
  router: ReturnType<typeof createStaticRouter>;
  context: StaticHandlerContext;
} {
  if (context.matches.length === 0) return { router: createStaticRouter(handlers.all.dataRoutes, context), context };
  const shown = {
    ...context,
    matches: context.matches.map((match) => ({ ...match, route: routeAsRendered(match.route) })),
  };
  return { router: createStaticRouter([], shown), context: shown };
}

/**
 * A page in two parts: `head`, the document up to the opening of its body, known once the loaders have read the page's
 * data, and `rest()`, which renders the app and writes the remaining document in parts (the server sends the head
 * first, so the browser fetches the styles and scripts while the app renders: modules/web/web.routes.ts; the parts are
 * not joined, server/document.ts says why). `head + rest().join('')` is the whole page. `rest()` renders once; a
 * component that throws while rendering throws from it.
 */
export interface RenderedPage extends Omit<RenderResult, 'html'> {
  head: string;
  rest: () => string[];
}

/** Renders one page: the same routes and components the browser hydrates. */
export async function render(input: RenderInput): Promise<RenderResult> {
  const { head, rest, ...page } = await renderPage(input);
  return { ...page, html: head + rest().join('') };
}

/**
 * The RSS feeds a page names (the server's modules/feeds): the home page the newest threads, or its category's when
 * it lists one; a thread page its replies.
 */
function pageFeeds(url: URL, t: TFunction): { href: string; title: string }[] {
  if (url.pathname === '/') {
    const category = url.searchParams.get('categoryId');
    return [
      { href: '/rss/latest.xml', title: t('feed.latest') },
      ...(category && /^\d{1,9}$/.test(category)
        ? [{ href: `/rss/category/${category}.xml`, title: t('feed.category') }]
        : []),
    ];
  }
  const thread = /^\/thread\/(\d{1,9})$/.exec(url.pathname);
  return thread ? [{ href: `/rss/thread/${thread[1]}.xml`, title: t('feed.thread') }] : [];
}

/** Reads one page's data and writes its head; its app is rendered by `rest()` (RenderedPage). */
export async function renderPage(input: RenderInput): Promise<RenderedPage> {
  const url = new URL(input.url, 'http://luntan.local');
  const platform = platformFromUserAgent(header(input.headers, 'user-agent'));
  const queryClient = createQueryClient(true);
  const ctx: AppContext = { queryClient, api: createServerApiClient(input.api), isServer: true };

  const requestHeaders = new Headers();
  for (const [name, value] of Object.entries(input.headers)) {
    if (typeof value === 'string') requestHeaders.set(name, value);
  }
  const context = await handlers.for(url.pathname).query(new Request(url, { method: 'GET', headers: requestHeaders }), {
    requestContext: ctx,
  });

  if (context instanceof Response) {
    const headers: Record<string, string> = {};
    const location = context.headers.get('Location');
    if (location) headers.location = location;
    const cookie = context.headers.get('Set-Cookie');
    if (cookie) headers['set-cookie'] = cookie;
    return { status: context.status, head: '', rest: () => [], headers };
  }

  if (input.forGroups) standInForMember(queryClient, input.forGroups);
  const forum = cachedForum(queryClient);
  const site = forum?.setSite ?? null;
  // The server's messages follow the same rule (packages/shared/src/locale.ts), so the two never disagree.
  const locale = resolveLocale(readCookie(header(input.headers, 'cookie'), LOCALE_COOKIE), site?.siteLocale);
  const i18n = i18nFor(locale);

  let status = context.statusCode;
  if (status === 200 && isNotFoundMatch(context.matches.map((m) => m.route))) status = 404;
  if (status === 200 && !forum) status = 503;

  const routeSources = context.matches
    .map((match) => ROUTE_MODULES[match.route.id as keyof typeof ROUTE_MODULES]?.src)
    .filter((src): src is string => typeof src === 'string');
  const [manifest, importMap] = await Promise.all([loadManifest(), loadImportMap()]);
  // The browser loads the page's language before hydrating: preloaded with the page's modules.
  const assets = pageAssets(manifest, [CATALOGUE_SOURCES[locale], ...routeSources]);

  const headMatches = shownMatches(
    context.matches.map((m) => ({ id: m.route.id, handle: m.route.handle, data: context.loaderData[m.route.id] })),
    context.errors,
    notFoundHandle,
  );
  const t = rememberedT(i18n);
  const head = pageHead(headMatches, t);
  const title = documentTitle(headMatches, t, site?.siteName);
  const description = head.description ?? site?.siteIntroduction ?? '';
  const origin = siteOrigin(input.headers);
  const siteStat = site?.siteStat ?? '';
  const importMapJson = importMap ? scriptSafeJson(importMap) : null;
  const documentHead = renderDocumentHead({
    lang: htmlLang(locale),
    platform,
    viewerPending: Boolean(input.forGroups),
    title,
    keywords: site?.siteKeywords ?? '',
    description,
    favicon: site?.siteFavicon || DEFAULT_FAVICON,
    feeds: status === 200 ? pageFeeds(url, t) : [],
    openGraph: {
      'og:type': head.type ?? 'website',
      'og:title': head.title ?? title,
      'og:description': description,
      'og:site_name': site?.siteName || t('site.defaultTitle'),
      'og:url': origin ? origin + url.pathname + url.search : '',
      'og:image': absoluteUrl(head.image || site?.siteLogo || '', origin),
    },
    importMapJson,
    stylesheets: assets.stylesheets,
    modulePreloads: assets.modulePreloads,
  });

  const rest = (): string[] => {
    const shown = staticRouterFor(context);
    const appHtml = renderToString(
      <AppProviders ctx={ctx} i18n={i18n} platform={platform}>
        <StaticRouterProvider router={shown.router} context={shown.context} hydrate={false} />
      </AppProviders>,
    );
    // After the render: what it read is what the browser hydrates with.
    const boot: BootState = {
      platform,
      locale,
      queries: dehydratePage(queryClient),
      ...(input.forGroups ? { forGroups: true } : {}),
    };
    return renderDocumentRest({
      appHtml,
      bootStateJson: scriptSafeJson(boot),
      routerStateJson: routerStateJson(context),
      entryScript: assets.entryScript,
      siteStat,
    });
  };
  return {
    status,
    head: documentHead,
    rest,
    headers: { 'cache-control': 'no-store' },
    scripts: { inline: importMapJson ? [importMapJson] : [], siteStat },
  };
}

/** Loads every page module and the client manifest ahead of the first visitor (the server calls it on start). */
export async function warmUp(): Promise<void> {
  await Promise.all([...Object.values(ROUTE_MODULES).map((module) => module.load()), loadManifest(), loadImportMap()]);
}
