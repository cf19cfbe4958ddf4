import qs from 'qs';

/**
 * The family's query form: filter[sort]=1, filter[categoryids][]=2, a[0]=1&a[1]=2. The router's parser (app.ts), and
 * the one a page's in-process reads use (modules/web/page-api.ts), so both see the same query.
 */
export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, { depth: 3, arrayLimit: 100, parameterLimit: 500 });
}
