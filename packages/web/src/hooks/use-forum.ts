import type { Forum, Viewer } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import type { ApiResult } from '../api/dispatcher';
import { forumKey, forumQuery } from '../api/queries';
import { useAppContext, type AppContext } from '../app-context';

export interface ForumState {
  /** The site, the viewer and their abilities; null until loaded or when loading failed. */
  forum: Forum | null;
  /** The site information could not be fetched (获取站点接口信息失败). */
  failed: boolean;
  retry: () => void;
}

function stateOf(result: ApiResult<Forum> | undefined, retry: () => void): ForumState {
  return {
    forum: result && result.Code === 0 ? (result.Data as Forum) : null,
    failed: result !== undefined && result.Code !== 0,
    retry,
  };
}

function useForumQuery(ctx: AppContext): ForumState {
  const query = useQuery(forumQuery(ctx.api));
  return stateOf(query.data, () => void query.refetch());
}

/** A server render's forum state, by its context (one per request): read from the cache once, not by each reader. */
const serverStates = new WeakMap<AppContext, ForumState>();

/** On the server the root loader has read the forum into the cache, and nothing changes or subscribes during a render. */
function cachedForumState(ctx: AppContext): ForumState {
  let state = serverStates.get(ctx);
  if (!state) {
    state = stateOf(ctx.queryClient.getQueryData<ApiResult<Forum>>(forumKey), () => undefined);
    serverStates.set(ctx, state);
  }
  return state;
}

export function useForum(): ForumState {
  const ctx = useAppContext();
  // The same data either way (the browser hydrates from the server's cache). A server render skips the query
  // observer, a dozen a page (header, footer, every viewer-dependent part); a context is the server's or the
  // browser's for its whole life, so a component's hooks are always the same ones.
  return (ctx.isServer ? cachedForumState : useForumQuery)(ctx);
}

export function useViewer(): Viewer | null {
  return useForum().forum?.user ?? null;
}
