import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useAppContext, type AppContext } from '../app-context';

interface DataQuery<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
}

function useObservedData<T>(_ctx: AppContext, options: DataQuery<T>): T | undefined {
  return useQuery(options).data;
}

function cachedData<T>(ctx: AppContext, options: DataQuery<T>): T | undefined {
  return ctx.queryClient.getQueryData<T>(options.queryKey);
}

/**
 * A query's data, for a page component whose loader has read it: `useQuery(options).data` in the browser. A server
 * render reads the cache instead (nothing changes during a render and nothing subscribes), without a query observer
 * per component; the browser hydrates from that same cache, so both render the same. A context is the server's or
 * the browser's for its whole life, so a component's hooks are always the same ones.
 */
export function useQueryData<T>(options: DataQuery<T>): T | undefined {
  const ctx = useAppContext();
  return (ctx.isServer ? cachedData : useObservedData)(ctx, options);
}
