import type { Forum, UnreadCounters } from '@luntan/shared';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from './client';
import type { ApiResult } from './dispatcher';

/** Query keys and fetchers shared by loaders (server and browser) and components. */
export const forumKey = ['forum'] as const;
export const unreadKey = (userId: number) => ['unread', userId] as const;

export const forumQuery = (api: ApiClient) => ({
  queryKey: forumKey,
  queryFn: (): Promise<ApiResult<Forum>> => api.get<Forum>('/api/v3/forum'),
});

export const unreadQuery = (api: ApiClient, userId: number) => ({
  queryKey: unreadKey(userId),
  queryFn: (): Promise<ApiResult<UnreadCounters>> => api.get<UnreadCounters>('/api/v3/unreadnotification'),
});

/** The forum answer (site, viewer, abilities) when it has been fetched successfully. */
export function cachedForum(queryClient: QueryClient): Forum | null {
  const result = queryClient.getQueryData<ApiResult<Forum>>(forumKey);
  return result && result.Code === 0 ? (result.Data as Forum) : null;
}
