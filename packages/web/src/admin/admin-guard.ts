import { data } from 'react-router';
import { forumQuery } from '../api/queries';
import type { AppContext } from '../app-context';

/** The back office exists only for administrators: everyone else gets the not-found page (HTTP 404). */
export function adminOnly(ctx: AppContext) {
  return async (): Promise<null> => {
    const forum = await ctx.queryClient.ensureQueryData(forumQuery(ctx.api));
    if (forum.Code === 0 && forum.Data.user?.isAdmin) return null;
    throw data(null, { status: 404 });
  };
}
