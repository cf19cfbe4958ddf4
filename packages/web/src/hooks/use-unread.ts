import { UNREAD_POLL_INTERVAL_MS, type UnreadCounters } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { unreadQuery } from '../api/queries';
import { useAppContext, type AppContext } from '../app-context';

/** Reads the counters again now (the poll, the live stream, a list that marked notices read). */
export function refreshUnread(ctx: Pick<AppContext, 'api' | 'queryClient'>, userId: number): Promise<unknown> {
  // fetchQuery, not invalidate: the badges read the cache through disabled observers, which invalidation skips.
  return ctx.queryClient.fetchQuery({ ...unreadQuery(ctx.api, userId), staleTime: 0 }).catch(() => undefined);
}

/**
 * The header's unread counters (spec section 4): fetched at once and then every 60 s, only while a user id exists;
 * the polling stops when the component using it (the header) is removed.
 */
export function useUnreadPolling(userId: number | null | undefined): UnreadCounters | null {
  const { api, queryClient } = useAppContext();

  useEffect(() => {
    if (!userId) return;
    const refresh = (): void => {
      void refreshUnread({ api, queryClient }, userId);
    };
    refresh();
    const timer = setInterval(refresh, UNREAD_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [api, queryClient, userId]);

  return useUnreadCounters(userId);
}

/** Reads the counters from the cache without fetching (the header's polling keeps them fresh). */
export function useUnreadCounters(userId: number | null | undefined): UnreadCounters | null {
  const { api } = useAppContext();
  const { data } = useQuery({ ...unreadQuery(api, userId ?? 0), enabled: false });
  return userId && data && data.Code === 0 ? (data.Data as UnreadCounters) : null;
}
