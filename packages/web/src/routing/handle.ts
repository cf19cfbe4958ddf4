import type { TFunction } from 'i18next';

/** What a route tells the shell about itself. */
export interface RouteHandle {
  /** The page's part of the document title, placed before the site name. */
  title?: (t: TFunction) => string;
  /** The not-found page: the server answers HTTP 404. */
  notFound?: boolean;
}

function handleOf(match: { handle?: unknown }): RouteHandle | undefined {
  return typeof match.handle === 'object' && match.handle !== null ? (match.handle as RouteHandle) : undefined;
}

/** `<title>`: the page's part, then the site name, or 欢迎 when the site has no name. */
export function documentTitle(
  matches: ReadonlyArray<{ handle?: unknown }>,
  t: TFunction,
  siteName: string | null | undefined,
): string {
  const site = siteName && siteName.trim() ? siteName.trim() : t('site.defaultTitle');
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = handleOf(matches[i]!)?.title?.(t);
    if (title) return `${title} - ${site}`;
  }
  return site;
}

export function isNotFoundMatch(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
  return matches.some((match) => handleOf(match)?.notFound === true);
}
