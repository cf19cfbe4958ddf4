/**
 * The family's query form: arrays with indices (`a[0]=1&a[1]=2`), nested objects in brackets (`filter[type]=1`).
 * Unlike the original we encode the values, so a keyword holding `&`, `#` or `=` survives the trip.
 *
 * It writes what `qs.stringify(params, { arrayFormat: 'indices', encodeValuesOnly: true, skipNulls: true })` writes
 * (query-string.test.ts compares the two), without qs and the dozen packages it brings: 15 KB of every page.
 */
export function serializeQuery(params: Record<string, unknown> | undefined): string {
  if (!params) return '';
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) addPairs(pairs, key, value);
  return pairs.join('&');
}

/** qs's value encoding: RFC 3986, so `!'()*` are escaped too (encodeURIComponent leaves them). */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'),
  );
}

function addPairs(pairs: string[], key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (value instanceof Date) {
    pairs.push(`${key}=${encodeValue(value.toISOString())}`);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => addPairs(pairs, `${key}[${index}]`, item));
  } else if (typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) addPairs(pairs, `${key}[${name}]`, item);
  } else if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
  ) {
    pairs.push(`${key}=${encodeValue(String(value))}`);
  }
}

/** Joins a path and its query, respecting a query string the path may already hold. */
export function withQuery(path: string, params: Record<string, unknown> | undefined): string {
  const query = serializeQuery(params);
  if (!query) return path;
  return path + (path.includes('?') ? '&' : '?') + query;
}
