import { QueryClient } from '@tanstack/react-query';

/** Server: one per request, nothing goes stale during a render. Browser: one per page, a minute of freshness. */
export function createQueryClient(isServer: boolean): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: isServer ? Infinity : 60_000,
        gcTime: isServer ? Infinity : 5 * 60_000,
        retry: false,
        refetchOnWindowFocus: false,
      },
    },
  });
}
