import { dehydrate, QueryClient, skipToken, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';

/** What a client keeps of its queries, without the times they were read at. */
function kept(client: QueryClient) {
  return dehydrate(client, { shouldDehydrateQuery: () => true }).queries.map((query) => ({
    queryKey: query.queryKey,
    queryHash: query.queryHash,
    status: query.state.status,
    fetchStatus: query.state.fetchStatus,
    data: query.state.data,
    error: query.state.error instanceof Error ? query.state.error.message : query.state.error,
    dataUpdateCount: query.state.dataUpdateCount,
    errorUpdateCount: query.state.errorUpdateCount,
  }));
}

/** A page's reads: two loaders asking for the same query at once, one read answered, one failed, one asked again. */
async function readPage(client: QueryClient, calls: string[]): Promise<void> {
  const read = (queryKey: QueryKey, answer: unknown) =>
    client.ensureQueryData({
      queryKey,
      queryFn: async () => {
        calls.push(JSON.stringify(queryKey));
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
  await Promise.all([
    read(['forum'], { Code: 0, Data: { siteName: 'Luntan' } }),
    read(['forum'], { Code: 0, Data: { siteName: 'another read' } }),
    read(['threads', { tab: 'all', page: 1 }], { Code: 0, Data: [1, 2] }),
  ]);
  await expect(read(['thread', 7], new Error('gone'))).rejects.toThrow('gone');
  // An infinite query (a chat's messages): its pages are TanStack's to assemble.
  const pages = await client.ensureInfiniteQueryData({
    queryKey: ['messages', 3],
    queryFn: ({ pageParam }) => {
      calls.push(`messages page ${pageParam}`);
      return Promise.resolve({ Code: 0, Data: [`message of page ${pageParam}`] });
    },
    initialPageParam: 1,
    getNextPageParam: (_last: unknown, all: unknown[]) => all.length + 1,
  });
  expect(pages.pages).toEqual([{ Code: 0, Data: ['message of page 1'] }]);
  // A query with initial data starts from it, without reading.
  const draft = await client.ensureQueryData({
    queryKey: ['draft'],
    queryFn: () => {
      calls.push('draft read');
      return Promise.resolve({ Code: 0, Data: 'read' });
    },
    initialData: { Code: 0, Data: 'initial' },
  });
  expect(draft).toEqual({ Code: 0, Data: 'initial' });
  await read(['threads', { page: 1, tab: 'all' }], { Code: 0, Data: ['not read again'] });
}

describe('createQueryClient(true): the server reads', () => {
  it('keep what TanStack keeps: the same queries, answers, errors and order, each read once', async () => {
    const server = createQueryClient(true);
    const plain = new QueryClient({ defaultOptions: server.getDefaultOptions() });
    const serverCalls: string[] = [];
    const plainCalls: string[] = [];
    await readPage(server, serverCalls);
    await readPage(plain, plainCalls);
    expect(kept(server)).toEqual(kept(plain));
    expect(serverCalls).toEqual(plainCalls);
    expect(serverCalls).toEqual(['["forum"]', '["threads",{"tab":"all","page":1}]', '["thread",7]', 'messages page 1']);
    expect(server.getQueryData(['forum'])).toEqual({ Code: 0, Data: { siteName: 'Luntan' } });
    expect(server.getQueryData(['missing'])).toBeUndefined();
  });

  it("merge the client's defaults into a query's options as TanStack does", () => {
    const server = createQueryClient(true);
    const plain = new QueryClient({ defaultOptions: server.getDefaultOptions() });
    const queryFn = () => Promise.resolve(1);
    const select = (value: number) => value + 1;
    const cases = [
      { queryKey: ['thread', 1], queryFn },
      { queryKey: ['posts', 1, { page: 2, sort: 'new' }], queryFn, select, staleTime: 5 },
      { queryKey: ['user', 3], queryFn: skipToken },
      { queryKey: ['users'], queryFn, networkMode: 'always' as const, throwOnError: true, enabled: false },
    ];
    for (const options of cases as Parameters<QueryClient['defaultQueryOptions']>[0][]) {
      const ours = server.defaultQueryOptions(options);
      expect(ours).toEqual(plain.defaultQueryOptions(options));
      expect(server.defaultQueryOptions(ours)).toBe(ours);
    }
  });

  it('answer a query already read from the cache, without merging its options again', async () => {
    const server = createQueryClient(true);
    await server.ensureQueryData({ queryKey: ['forum'], queryFn: () => Promise.resolve('site') });
    let merges = 0;
    const merge = server.defaultQueryOptions.bind(server);
    server.defaultQueryOptions = ((options: never) => {
      merges += 1;
      return merge(options);
    }) as typeof server.defaultQueryOptions;
    expect(await server.ensureQueryData({ queryKey: ['forum'], queryFn: () => Promise.resolve('again') })).toBe('site');
    expect(server.getQueryData(['forum'])).toBe('site');
    expect(merges).toBe(0);
  });

  it("leave the browser's client as TanStack made it", () => {
    const browser = createQueryClient(false);
    expect(browser.ensureQueryData).toBe(QueryClient.prototype.ensureQueryData);
    expect(browser.getQueryData).toBe(QueryClient.prototype.getQueryData);
    expect(browser.defaultQueryOptions).toBe(QueryClient.prototype.defaultQueryOptions);
  });
});
