import { randomUUID } from 'node:crypto';
import {
  Code,
  LOCALE_COOKIE,
  pluginListQuery,
  postsListQuery,
  resolveLocale,
  threadDetailQuery,
  threadListQuery,
  topicsListQuery,
  userProfileQuery,
  usersListQuery,
  type Envelope,
  type Locale,
} from '@luntan/shared';
import type { FastifyInstance, FastifyRequest, InjectOptions } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../core/errors.js';
import { chosenLocale, codeMessage, localize } from '../../core/i18n.js';
import { nulPath } from '../../core/input-guard.js';
import { parseQueryString } from '../../core/query-string.js';
import { owesJoiningFee } from '../../access/paid-joining.js';
import { resolveViewer, statusError, tokenFromRequest, type ViewerContext } from '../../access/viewer.js';
import { categoriesOf, presentCategories } from '../categories/index.js';
import { readForum } from '../forum/index.js';
import { unreadCounters } from '../notifications/index.js';
import { readProfile } from '../people/index.js';
import { listEnabledPlugins } from '../plugins/index.js';
import { listPosts } from '../posts/index.js';
import { findUsers } from '../search/index.js';
import { findThreadDetail, listThreadsFor, threadDetail, type ThreadDetailRead } from '../threads/index.js';
import { listTopicsFor } from '../topics/index.js';
import { groupViewer, renderAsHeader, type RenderAs } from './group-render.js';

/**
 * The API a page's server render calls (the `api` of packages/web/src/entry-server.tsx). The reads its loaders make
 * are answered in process: the viewer is resolved and the version counters read once for the whole render, then
 * each read calls what its route's handler calls and gets the same envelope, with no Fastify round, no JSON.
 * Everything else (every POST, a read not listed below, a query its schema refuses, an unexpected failure, and
 * every call of a visitor the /api hook would stop: a closed site, a stopped account, an unpaid joining fee) goes
 * through app.inject as before, so what a page receives never differs from what the browser would be told.
 */
export type PageApi = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Envelope<T>>;

/** One GET answered in process: its route's querystring schema and guard, and what its handler calls. */
interface PageRead {
  /** The route's `loginRequired`: a guest's call goes through app.inject (and gets its refusal there). */
  loginRequired?: boolean;
  answer(
    ctx: AppContext,
    viewer: ViewerContext,
    query: Record<string, unknown>,
    locale: Locale,
    reads: SharedReads,
  ): Promise<unknown>;
}

/**
 * What one render's loaders read in common, read once: a thread page's detail and its replies both start from the
 * thread's row (its replies' loader would read it again, one statement more a page), so the row comes from the
 * detail's one statement for both. Kept for one render only: a page reads the forum as it is now.
 */
class SharedReads {
  private readonly threads = new Map<number, Promise<ThreadDetailRead | undefined>>();

  constructor(private readonly ctx: AppContext) {}

  /** The thread as `viewerId` (the render's one viewer) sees it. */
  thread(id: number, viewerId: number): Promise<ThreadDetailRead | undefined> {
    let reading = this.threads.get(id);
    if (!reading) {
      reading = findThreadDetail(this.ctx.db, id, viewerId);
      this.threads.set(id, reading);
    }
    return reading;
  }
}

/** A read whose route validates its querystring with `schema`. */
function withQuery<S extends z.ZodType>(
  schema: S,
  answer: (
    ctx: AppContext,
    viewer: ViewerContext,
    query: z.output<S>,
    locale: Locale,
    reads: SharedReads,
  ) => Promise<unknown>,
): PageRead {
  return {
    answer: async (ctx, viewer, query, locale, reads) => {
      const parsed = schema.safeParse(query);
      // The route's own answer to a refused query (its message names the field) is app.inject's.
      if (!parsed.success) throw new NotAnsweredHere();
      return answer(ctx, viewer, parsed.data, locale, reads);
    },
  };
}

/** The reads of the page loaders (packages/web/src/routes/ and route-table.tsx), by path; the routes are named. */
const PAGE_READS = new Map<string, PageRead>([
  // forum.routes.ts
  ['/api/v3/forum', { answer: (ctx, viewer) => readForum(ctx, viewer) }],
  // notifications.routes.ts
  [
    '/api/v3/unreadnotification',
    { loginRequired: true, answer: (ctx, viewer) => unreadCounters(ctx, viewer.user!.id) },
  ],
  // plugins.routes.ts
  [
    '/api/v3/plugin/list',
    withQuery(pluginListQuery, (ctx, _viewer, query, locale) => listEnabledPlugins(ctx, query.platform, locale)),
  ],
  // categories.routes.ts
  ['/api/v3/categories', { answer: async (ctx, viewer) => presentCategories(viewer, await categoriesOf(ctx)) }],
  // threads.routes.ts
  ['/api/v3/thread.list', withQuery(threadListQuery, (ctx, viewer, query) => listThreadsFor(ctx, viewer, query))],
  [
    '/api/v3/thread.detail',
    withQuery(threadDetailQuery, (ctx, viewer, query, _locale, reads) =>
      threadDetail(ctx, viewer, query.threadId, reads.thread(query.threadId, viewer.user?.id ?? 0)),
    ),
  ],
  // posts.routes.ts
  [
    '/api/v3/posts.list',
    withQuery(postsListQuery, (ctx, viewer, query, _locale, reads) =>
      listPosts(
        ctx,
        viewer,
        query,
        reads.thread(query.threadId, viewer.user?.id ?? 0).then((read) => read?.row),
      ),
    ),
  ],
  // topics.routes.ts
  ['/api/v3/topics.list', withQuery(topicsListQuery, (ctx, viewer, query) => listTopicsFor(ctx, viewer, query))],
  // search.routes.ts
  ['/api/v3/users.list', withQuery(usersListQuery, (ctx, _viewer, query) => findUsers(ctx, query))],
  // people.routes.ts
  ['/api/v3/user', withQuery(userProfileQuery, (ctx, viewer, query) => readProfile(ctx.db, viewer, query.userId))],
]);

/** Thrown inside: this call is app.inject's to answer. */
class NotAnsweredHere extends Error {}

/**
 * Request headers that the app.inject calls carry over from the visitor. Accept-Language is not among them: the
 * language is the `locale` cookie's, else the site's (packages/shared/src/locale.ts).
 */
const FORWARDED_HEADERS = ['cookie', 'authorization', 'user-agent', 'x-forwarded-for'] as const;

/** The call as today's HTTP route answers it: app.inject with the visitor's headers (or as the groups). */
function injectApi(app: FastifyInstance, request: FastifyRequest, renderAs: RenderAs | null): PageApi {
  return async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Envelope<T>> => {
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
}

/** Who reads the page, resolved once: null when the /api hook would stop them (their calls go through inject). */
interface PageViewer {
  viewer: ViewerContext;
  locale: Locale;
}

/** What api.ts's onRequest hook does for every call, done once for the render. */
async function resolvePageViewer(
  app: FastifyInstance,
  request: FastifyRequest,
  renderAs: RenderAs | null,
): Promise<PageViewer | null> {
  const { ctx } = app;
  await ctx.versions.refresh();
  const viewer = renderAs
    ? await groupViewer(ctx.db, renderAs, ctx.viewers)
    : await resolveViewer(ctx.db, tokenFromRequest(request), ctx.viewers);
  const site = await ctx.siteGate.get();
  if (site.closed && !viewer.isAdmin) return null;
  if (viewer.user && statusError(viewer.user)) return null;
  if (owesJoiningFee(viewer, site.siteMode)) return null;
  const locale = resolveLocale(chosenLocale(request), site.locale);
  // A copy: the resolved viewer may be a cached object shared by requests.
  return { viewer: { ...viewer, locale }, locale };
}

function envelopeOf<T>(code: Envelope<T>['Code'], message: string, data: T): Envelope<T> {
  return { Code: code, Message: message, Data: data, RequestId: randomUUID(), RequestTime: new Date().toISOString() };
}

/**
 * The `api` of one page render for `request` (as `renderAs`'s groups when given: modules/web/group-render.ts).
 * The viewer is resolved on the first call and kept for the render's others.
 */
export function pageApi(app: FastifyInstance, request: FastifyRequest, renderAs: RenderAs | null): PageApi {
  const inject = injectApi(app, request, renderAs);
  const reads = new SharedReads(app.ctx);
  let pageViewer: Promise<PageViewer | null> | undefined;
  return async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Envelope<T>> => {
    const cut = url.indexOf('?');
    const read = method === 'GET' ? PAGE_READS.get(cut < 0 ? url : url.slice(0, cut)) : undefined;
    if (!read) return inject<T>(method, url, body);
    // A failure to resolve the viewer is the /api hook's to answer, call by call.
    pageViewer ??= resolvePageViewer(app, request, renderAs).catch(() => null);
    const reader = await pageViewer;
    if (!reader || (read.loginRequired && !reader.viewer.user)) return inject<T>(method, url, body);
    const query = cut < 0 ? {} : parseQueryString(url.slice(cut + 1));
    if (nulPath(query, 'query')) return inject<T>(method, url, body);
    try {
      const data = (await read.answer(app.ctx, reader.viewer, query, reader.locale, reads)) as T;
      return envelopeOf(Code.SUCCESS, codeMessage(Code.SUCCESS, reader.locale), data);
    } catch (error) {
      // A refusal of the rules (not found, no permission...) is written as api.ts's error handler writes it.
      if (error instanceof AppError) {
        const message = error.text ? localize(error.text, reader.locale) : codeMessage(error.code, reader.locale);
        return envelopeOf(error.code, message, (error.options.data ?? {}) as T);
      }
      return inject<T>(method, url, body);
    }
  };
}
