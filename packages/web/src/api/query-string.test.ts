import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { serializeQuery, withQuery } from './query-string';

/** What the query form was written with before: the serializer must write exactly the same. */
const withQs = (params: Record<string, unknown>) =>
  qs.stringify(params, { arrayFormat: 'indices', encodeValuesOnly: true, skipNulls: true });

describe('serializeQuery', () => {
  const cases: Record<string, unknown>[] = [
    {},
    { page: 1, perPage: 20 },
    { a: [1, 2], b: [] },
    { keyword: "rock & roll #1 = 100% (yes!) *wow* 'quoted' ~tilde~ a+b/c?d" },
    { keyword: '论坛 搜索 😀', empty: '' },
    { filter: { type: 'liked', ids: [3], sort: 1, complex: 5, toUserId: 7 }, page: 2 },
    { filter: { categoryids: [1, 2, 3], nested: { deep: ['x', { y: 'z' }] } } },
    { skipped: null, missing: undefined, kept: 0, no: false, yes: true, big: 12n },
    { list: [null, 'a', undefined, 'b'], when: new Date('2024-05-06T07:08:09.010Z') },
    { 'odd key': 'v', emptyObject: {}, arrayOfObjects: [{ id: 1 }, { id: 2, tags: ['p'] }] },
  ];

  it.each(
    cases.map((params) => [JSON.stringify(params, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)), params]),
  )('writes what qs wrote: %s', (_name, params) => {
    expect(serializeQuery(params)).toBe(withQs(params));
  });

  it('joins a path and its query', () => {
    expect(withQuery('/api/v3/threads.list', { page: 2 })).toBe('/api/v3/threads.list?page=2');
    expect(withQuery('/api/v3/threads.list?x=1', { page: 2 })).toBe('/api/v3/threads.list?x=1&page=2');
    expect(withQuery('/api/v3/forum', {})).toBe('/api/v3/forum');
    expect(withQuery('/api/v3/forum', undefined)).toBe('/api/v3/forum');
  });
});
