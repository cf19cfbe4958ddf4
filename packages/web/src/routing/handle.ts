import type { TFunction } from 'i18next';
import { isRouteErrorResponse } from 'react-router';

/** What a page tells the document head about itself (beyond the site's own keywords and description). */
export interface PageHead {
  /** The page's part of the title, placed before the site name. */
  title?: string;
  /** Replaces the site introduction as the description (and the OpenGraph description). */
  description?: string;
  /** OpenGraph type; `website` unless a page says `article`. */
  type?: 'website' | 'article';
  /** An absolute or root-relative image for OpenGraph. */
  image?: string;
}

/** What a route tells the shell about itself. */
export interface RouteHandle {
  /** The page's part of the document title, placed before the site name. */
  title?: (t: TFunction) => string;
  /** A head built from the route's loader data (a thread's title and description). Wins over `title`. */
  head?: (data: unknown, t: TFunction) => PageHead | null;
  /** The not-found page: the server answers HTTP 404. */
  notFound?: boolean;
}

interface MatchLike {
  handle?: unknown;
  data?: unknown;
}

function handleOf(match: MatchLike): RouteHandle | undefined {
  return typeof match.handle === 'object' && match.handle !== null ? (match.handle as RouteHandle) : undefined;
}

/** The innermost page's head. */
export function pageHead(matches: ReadonlyArray<MatchLike>, t: TFunction): PageHead {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i]!;
    const handle = handleOf(match);
    const head = handle?.head?.(match.data, t);
    if (head) return head;
    const title = handle?.title?.(t);
    if (title) return { title };
  }
  return {};
}

/** `<title>`: the page's part, then the site name, or 欢迎 when the site has no name. */
export function documentTitle(
  matches: ReadonlyArray<MatchLike>,
  t: TFunction,
  siteName: string | null | undefined,
): string {
  const site = siteName && siteName.trim() ? siteName.trim() : t('site.defaultTitle');
  const title = pageHead(matches, t).title;
  return title ? `${title} - ${site}` : site;
}

/**
 * The matches the head should describe. A loader that refuses with a 404 (the back office for anyone but an
 * administrator) makes its error boundary show the not-found page: the routes from the boundary down are matched but
 * not on screen, so their titles must not leak. `errors` are the router's, by the id of the boundary's route.
 */
export function shownMatches<M extends MatchLike & { id: string }>(
  matches: ReadonlyArray<M>,
  errors: Readonly<Record<string, unknown>> | null | undefined,
  notFound: RouteHandle,
): ReadonlyArray<MatchLike> {
  if (!errors) return matches;
  const at = matches.findIndex((match) => {
    const error = errors[match.id];
    return isRouteErrorResponse(error) && error.status === 404;
  });
  return at < 0 ? matches : [...matches.slice(0, at + 1), { handle: notFound }];
}

export function isNotFoundMatch(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
  return matches.some((match) => handleOf(match)?.notFound === true);
}
