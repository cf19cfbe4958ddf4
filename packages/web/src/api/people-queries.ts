import {
  FollowType,
  ThreadComplex,
  ThreadSort,
  type Page,
  type PersonItem,
  type ThreadItem,
  type UserProfile,
  type UserSearchItem,
} from '@luntan/shared';
import type { ApiClient } from './client';
import type { ApiResult } from './dispatcher';

/**
 * Query keys and fetchers of people: profile cards, follows and fans, blocked users, a member's thread lists.
 * Keys carry the viewer's id, since the answers hold the viewer's relation (follow, isDeny, isMe).
 */

export const PEOPLE_PER_PAGE = 20;

export const userProfileKey = (userId: number) => ['user', userId] as const;

export const userProfileQuery = (api: ApiClient, userId: number, viewerId: number) => ({
  queryKey: [...userProfileKey(userId), viewerId] as const,
  queryFn: (): Promise<ApiResult<UserProfile>> => api.get<UserProfile>('/api/v3/user', { userId }),
});

/**
 * The same profile (same key), fetched without the shared handler's redirects: a missing member must not send a
 * reader who merely pointed at an avatar, or opened a chat with them, to /404.
 */
export const quietUserProfileQuery = (api: ApiClient, userId: number, viewerId: number) => ({
  ...userProfileQuery(api, userId, viewerId),
  queryFn: (): Promise<ApiResult<UserProfile>> =>
    api.get<UserProfile>('/api/v3/user', { userId }, { handleError: false }),
});

export type PeopleKind = 'follows' | 'fans';

export const peopleQuery = (api: ApiClient, kind: PeopleKind, userId: number, page: number, viewerId: number) => ({
  queryKey: ['people', kind, userId, page, viewerId] as const,
  queryFn: (): Promise<ApiResult<Page<PersonItem>>> =>
    api.get<Page<PersonItem>>('/api/v3/follow.list', {
      page,
      perPage: PEOPLE_PER_PAGE,
      filter: { type: kind === 'follows' ? FollowType.FOLLOWING : FollowType.FANS, userId },
    }),
});

export const deniedPeopleQuery = (api: ApiClient, page: number, viewerId: number) => ({
  queryKey: ['people', 'denied', page, viewerId] as const,
  queryFn: (): Promise<ApiResult<Page<PersonItem>>> =>
    api.get<Page<PersonItem>>('/api/v3/users/deny.list', { page, perPage: PEOPLE_PER_PAGE }),
});

/** The thread lists of a profile: a member's threads and likes; one's own drafts, likes and favourites. */
export type ProfileThreadList = 'threads' | 'liked' | 'drafts' | 'favorites';

/** thread.list's filter for each list; `userId` is whose threads or likes (the viewer's own for the rest). */
export function profileThreadsRequest(list: ProfileThreadList, userId: number, page: number): Record<string, unknown> {
  const filter: Record<string, unknown> = { sort: ThreadSort.CREATED };
  if (list === 'threads') Object.assign(filter, { complex: ThreadComplex.BY_USER, toUserId: userId });
  if (list === 'liked') Object.assign(filter, { complex: ThreadComplex.LIKED, toUserId: userId });
  if (list === 'drafts') Object.assign(filter, { complex: ThreadComplex.MY_DRAFTS, sort: ThreadSort.UPDATED });
  if (list === 'favorites') filter.complex = ThreadComplex.FAVORITES;
  return { page, perPage: PEOPLE_PER_PAGE, filter };
}

/** Under `threads`, so that posting, liking and blocking (which refresh every thread list) refresh these too. */
export const profileThreadsQuery = (
  api: ApiClient,
  list: ProfileThreadList,
  userId: number,
  page: number,
  viewerId: number,
) => ({
  queryKey: ['threads', 'profile', list, userId, page, viewerId] as const,
  queryFn: (): Promise<ApiResult<Page<ThreadItem>>> =>
    api.get<Page<ThreadItem>>('/api/v3/thread.list', profileThreadsRequest(list, userId, page)),
});

/** How many names the @mention list suggests. */
export const MENTION_SUGGESTIONS = 6;

export const mentionQuery = (api: ApiClient, keyword: string) => ({
  queryKey: ['mention', keyword] as const,
  queryFn: (): Promise<ApiResult<Page<UserSearchItem>>> =>
    api.get<Page<UserSearchItem>>('/api/v3/users.list', {
      page: 1,
      perPage: MENTION_SUGGESTIONS,
      filter: { nickname: keyword },
    }),
});
