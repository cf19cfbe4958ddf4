import qs from 'qs';

/**
 * The family's query form: arrays with indices (`a[0]=1&a[1]=2`), nested objects in brackets (`filter[type]=1`).
 * Unlike the original we encode the values, so a keyword holding `&`, `#` or `=` survives the trip.
 */
export function serializeQuery(params: Record<string, unknown> | undefined): string {
  if (!params) return '';
  return qs.stringify(params, {
    arrayFormat: 'indices',
    encodeValuesOnly: true,
    skipNulls: true,
  });
}

/** Joins a path and its query, respecting a query string the path may already hold. */
export function withQuery(path: string, params: Record<string, unknown> | undefined): string {
  const query = serializeQuery(params);
  if (!query) return path;
  return path + (path.includes('?') ? '&' : '?') + query;
}
