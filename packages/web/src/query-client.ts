import { hashKey, QueryClient, skipToken, type EnsureQueryDataOptions, type QueryKey } from '@tanstack/react-query';

/** Server: one per request, nothing goes stale during a render. Browser: one per page, a minute of freshness. */
export function createQueryClient(isServer: boolean): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: isServer ? Infinity : 60_000,
        gcTime: isServer ? Infinity : 5 * 60_000,
        retry: false,
        refetchOnWindowFocus: false,
      },
    },
  });
  if (isServer) readOnceReads(client);
  return client;
}

/** The signal a server read is given: a render's reads are never cancelled. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * The server's reads, without the machinery of a client that lives on. A page render asks for each query a few times
 * (its loaders, the root's, the head, its components) and reads it at most once, never again, never cancelled, never
 * retried. TanStack merges the client's defaults into a query's options at every step (`defaultQueryOptions`: object
 * spreads of options of many shapes, 7-8 µs a call on the bench machine, 20-30 calls a page) and runs each first read
 * through a retryer with its abort controller. Here the merge is one `Object.assign` with TanStack's same steps after
 * it (under 1 µs), a read already answered is looked up by its key's hash, and a first read calls the query's
 * function and stores its answer with `setQueryData` (two reads of one key at once share the first). What is kept,
 * and so what the components, the head and the dehydrated state see, is the same: a query in the cache with its data,
 * or with its error when the function failed (as a failed `fetchQuery` leaves it). The app registers no query
 * defaults (`setQueryDefaults`) and no `queryKeyHashFn`, which TanStack's steps would also apply.
 */
function readOnceReads(client: QueryClient): void {
  const cache = client.getQueryCache();
  const reading = new Map<string, Promise<unknown>>();

  const defaults = client.getDefaultOptions().queries ?? {};

  // TanStack's own steps, with one Object.assign (a fast path in V8) instead of spreads of objects of many shapes.
  const defaultQueryOptions = (options: Record<string, unknown>): Record<string, unknown> => {
    if (options._defaulted) return options;
    const defaulted: Record<string, unknown> = Object.assign({}, defaults, options);
    defaulted._defaulted = true;
    if (!defaulted.queryHash) defaulted.queryHash = hashKey(defaulted.queryKey as QueryKey);
    if (defaulted.refetchOnReconnect === undefined) defaulted.refetchOnReconnect = defaulted.networkMode !== 'always';
    if (defaulted.throwOnError === undefined) defaulted.throwOnError = !!defaulted.suspense;
    if (!defaulted.networkMode && defaulted.persister) defaulted.networkMode = 'offlineFirst';
    if (defaulted.queryFn === skipToken) defaulted.enabled = false;
    return defaulted;
  };

  const getQueryData = (queryKey: QueryKey): unknown => cache.get(hashKey(queryKey))?.state.data;

  const ensureQueryData = (options: EnsureQueryDataOptions<unknown, Error, unknown, QueryKey>): Promise<unknown> => {
    const hash = hashKey(options.queryKey);
    const data = cache.get(hash)?.state.data;
    if (data !== undefined) return Promise.resolve(data);
    const pending = reading.get(hash);
    if (pending) return pending;
    const queryFn = options.queryFn;
    // An infinite query's pages are assembled by TanStack's infinite behaviour (`ensureInfiniteQueryData` marks
    // the options and comes here), and a query with initial data starts from it: read through TanStack's own path,
    // as is a query without a function.
    if (
      typeof queryFn !== 'function' ||
      (options as { _type?: string })._type === 'infinite' ||
      'behavior' in options ||
      'initialData' in options
    ) {
      return client.fetchQuery(options);
    }
    // Started on the next turn, so that it is registered before it can end.
    const read = Promise.resolve().then(async () => {
      try {
        const answer = await queryFn({
          client,
          queryKey: options.queryKey,
          signal: NEVER_ABORTED,
          meta: options.meta,
        } as never);
        if (answer === undefined) throw new Error(`Query data cannot be undefined (${hash})`);
        client.setQueryData(options.queryKey, answer);
        return answer;
      } catch (error) {
        const query = cache.build(client, client.defaultQueryOptions(options));
        query.setState({
          ...query.state,
          status: 'error',
          fetchStatus: 'idle',
          error: error as Error,
          errorUpdateCount: query.state.errorUpdateCount + 1,
          errorUpdatedAt: Date.now(),
          fetchFailureCount: query.state.fetchFailureCount + 1,
          fetchFailureReason: error as Error,
        });
        throw error;
      } finally {
        reading.delete(hash);
      }
    });
    reading.set(hash, read);
    return read;
  };

  client.defaultQueryOptions = defaultQueryOptions as unknown as QueryClient['defaultQueryOptions'];
  client.getQueryData = getQueryData as QueryClient['getQueryData'];
  client.ensureQueryData = ensureQueryData as QueryClient['ensureQueryData'];
}
