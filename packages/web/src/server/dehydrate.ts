import type { Page, PostItem } from '@luntan/shared';
import { dehydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { isSuccess, type ApiResult } from '../api/dispatcher';

/**
 * A reply as the browser needs it on the first page: its Markdown source only when the viewer may edit it (the edit
 * box is the one reader of the source; the page shows, and hydration compares, the rendered HTML). Every reload of
 * the list (a refresh, a refetch) brings the source again. A copy: the cached answer is left as it was.
 */
function withoutSource(item: PostItem): PostItem {
  const comments = item.comments.length > 0 ? item.comments.map(withoutSource) : item.comments;
  if (item.ability.canEdit) return comments === item.comments ? item : { ...item, comments };
  return { ...item, content: { ...item.content, text: '' }, comments };
}

/**
 * The page's query cache for the boot state, without what the browser never reads on hydration: the replies' Markdown
 * (a page of 20 replies carried each one twice, as HTML and as source, about a third of the boot state).
 */
export function dehydratePage(queryClient: QueryClient): DehydratedState {
  const state = dehydrate(queryClient);
  return {
    ...state,
    queries: state.queries.map((query) => {
      const result = query.state.data as ApiResult<Page<PostItem>> | undefined;
      if (query.queryKey[0] !== 'posts' || !result || !isSuccess(result)) return query;
      const data = { ...result, Data: { ...result.Data, pageData: result.Data.pageData.map(withoutSource) } };
      return { ...query, state: { ...query.state, data } };
    }),
  };
}
