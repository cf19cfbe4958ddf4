import { createStaticHandler, type RouteObject } from 'react-router';

type StaticHandler = ReturnType<typeof createStaticHandler>;

export interface StaticHandlers {
  /** The whole table's handler. */
  all: StaticHandler;
  /** The handler whose routes answer `pathname` as the whole table's would. */
  for(pathname: string): StaticHandler;
}

/** Stands for a first segment that no route names: its handler keeps only the routes that match any. */
const UNNAMED = '\u0000';

/**
 * The first segment of a route's full path, lowercase (React Router matches without regard to case): `''` for the
 * root, `null` for a route that may match under any first segment (a dynamic or optional one, a splat).
 */
function firstSegment(fullPath: string): string | null {
  const segment = fullPath.replace(/^\/+/, '').split('/')[0]!;
  return /[:*?]/.test(segment) ? null : segment.toLowerCase();
}

const joinPath = (parent: string, path: string) =>
  path.startsWith('/') ? path : `${parent.replace(/\/+$/, '')}/${path}`;

/**
 * The routes of `routes` that can match a path whose first segment is `segment`, with the layouts above them: every
 * branch of the whole table that could match such a path, in the same order (siblings keep their relative order,
 * which is all React Router's ranking reads of their positions).
 */
function routesUnder(routes: RouteObject[], segment: string, parentPath = ''): RouteObject[] {
  const kept: RouteObject[] = [];
  for (const route of routes) {
    const path = route.path === undefined ? parentPath : joinPath(parentPath, route.path);
    const children = route.children ? routesUnder(route.children, segment, path) : undefined;
    const matchesItself = route.index === true || route.path !== undefined;
    const first = firstSegment(path);
    if ((matchesItself && (first === null || first === segment)) || (children && children.length > 0)) {
      kept.push(children ? ({ ...route, children } as RouteObject) : route);
    }
  }
  return kept;
}

/** Every first segment the table names (a route that matches under any is in every handler). */
function namedSegments(routes: RouteObject[], parentPath = '', into = new Set<string>()): Set<string> {
  for (const route of routes) {
    const path = route.path === undefined ? parentPath : joinPath(parentPath, route.path);
    const first = firstSegment(path);
    if (first !== null && (route.index === true || route.path !== undefined)) into.add(first);
    if (route.children) namedSegments(route.children, path, into);
  }
  return into;
}

/**
 * React Router's static handler tries the table's branches, in rank order, against a page's path until one matches:
 * about a hundred of them (every page and the back office), 4 % of a home page's CPU (docs/performance.md, "ninth
 * part"). A route can only match a path that begins with its own first segment (unless that segment is dynamic or a
 * splat), so each first segment gets a handler of just the routes that can match under it, made when first asked
 * for. A path this cannot key plainly (percent-encoded, with empty segments) goes to the whole table's handler.
 */
export function staticHandlers(routes: RouteObject[]): StaticHandlers {
  const all = createStaticHandler(routes);
  const named = namedSegments(routes);
  const handlers = new Map<string, StaticHandler>();
  return {
    all,
    for(pathname) {
      const plain = /^\/([^/%]*)(?:\/(?!\/)|$)/.exec(pathname);
      if (!plain || pathname.includes('%') || pathname.includes('//')) return all;
      const key = named.has(plain[1]!.toLowerCase()) ? plain[1]!.toLowerCase() : UNNAMED;
      let handler = handlers.get(key);
      if (!handler) handlers.set(key, (handler = createStaticHandler(routesUnder(routes, key))));
      return handler;
    },
  };
}
