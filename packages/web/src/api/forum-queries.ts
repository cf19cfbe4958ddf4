import {
  ThreadComplex,
  ThreadSort,
  type CategoryItem,
  type Page,
  type PostItem,
  type PublicSigninField,
  type ThreadDetail,
  type ThreadItem,
  type UserSearchItem,
} from '@luntan/shared';
import type { ApiClient } from './client';
import type { ApiResult } from './dispatcher';

/** Query keys and fetchers of the forum's pages, shared by loaders (server and browser) and components. */

/** The home page's tabs: what each asks thread.list for. */
export const HOME_TABS = ['all', 'essence', 'newest', 'hot'] as const;
export type HomeTab = (typeof HOME_TABS)[number];

export interface ThreadListParams {
  page: number;
  categoryId?: number;
  tab?: HomeTab;
  search?: string;
  perPage?: number;
}

/** thread.list's query for a home tab: all (last reply), essence, newest (created), hot (views of the last 7 days). */
export function threadListRequest(params: ThreadListParams): Record<string, unknown> {
  const filter: Record<string, unknown> = { sort: 2 };
  if (params.tab === 'newest') filter.sort = 1;
  if (params.tab === 'hot') filter.sort = 3;
  if (params.tab === 'essence') filter.essence = 1;
  if (params.categoryId) filter.categoryids = [params.categoryId];
  if (params.search) filter.search = params.search;
  return { page: params.page, perPage: params.perPage ?? 20, filter };
}

export const categoriesQuery = (api: ApiClient) => ({
  queryKey: ['categories'] as const,
  queryFn: (): Promise<ApiResult<CategoryItem[]>> => api.get<CategoryItem[]>('/api/v3/categories'),
});

export const threadListQuery = (api: ApiClient, params: ThreadListParams) => ({
  queryKey: ['threads', params] as const,
  queryFn: (): Promise<ApiResult<Page<ThreadItem>>> =>
    api.get<Page<ThreadItem>>('/api/v3/thread.list', threadListRequest(params)),
});

/** How many of the viewer's drafts the posting page offers. */
export const DRAFTS_OFFERED = 5;

/**
 * The viewer's own server drafts, last changed first (thread.list filter[complex]=1). Under `threads`, so that saving
 * or publishing (which refresh every thread list) refresh it too; keyed by the viewer, whose drafts they are.
 */
export const draftsQuery = (api: ApiClient, userId: number) => ({
  queryKey: ['threads', 'drafts', userId] as const,
  queryFn: (): Promise<ApiResult<Page<ThreadItem>>> =>
    api.get<Page<ThreadItem>>('/api/v3/thread.list', {
      page: 1,
      perPage: DRAFTS_OFFERED,
      filter: { complex: ThreadComplex.MY_DRAFTS, sort: ThreadSort.UPDATED },
    }),
});

export const threadDetailQuery = (api: ApiClient, threadId: number) => ({
  queryKey: ['thread', threadId] as const,
  queryFn: (): Promise<ApiResult<ThreadDetail>> => api.get<ThreadDetail>('/api/v3/thread.detail', { threadId }),
});

/** Replies per page of a thread (links to a reply compute its page with it). */
export const REPLIES_PER_PAGE = 20;

export const postsQuery = (api: ApiClient, threadId: number, page: number) => ({
  queryKey: ['posts', threadId, page] as const,
  queryFn: (): Promise<ApiResult<Page<PostItem>>> =>
    api.get<Page<PostItem>>('/api/v3/posts.list', { threadId, page, perPage: REPLIES_PER_PAGE }),
});

export const userSearchQuery = (api: ApiClient, keyword: string, page: number) => ({
  queryKey: ['users', keyword, page] as const,
  queryFn: (): Promise<ApiResult<Page<UserSearchItem>>> =>
    api.get<Page<UserSearchItem>>('/api/v3/users.list', { page, perPage: 20, filter: { nickname: keyword } }),
});

/** A positive integer from a query-string value, or the fallback. */
export function positiveInt(value: string | null | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : fallback;
}

/** The enabled sign-in fields (with the viewer's answers), for the registration and supplementary pages. */
export const signinFieldsQuery = (api: ApiClient) => ({
  queryKey: ['signin-fields'] as const,
  queryFn: (): Promise<ApiResult<PublicSigninField[]>> =>
    api.get<PublicSigninField[]>('/api/v3/user/signinfields.list'),
});
