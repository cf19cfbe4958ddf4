import { data, type LoaderFunctionArgs } from 'react-router';
import { forumQuery } from '../api/queries';
import { contextOf, type AppContextSource } from '../app-context';

/** The back office exists only for administrators: everyone else gets the not-found page (HTTP 404). */
export function adminOnly(source: AppContextSource) {
  return async (args: LoaderFunctionArgs): Promise<null> => {
    const ctx = contextOf(source, args);
    const forum = await ctx.queryClient.ensureQueryData(forumQuery(ctx.api));
    if (forum.Code === 0 && forum.Data.user?.isAdmin) return null;
    throw data(null, { status: 404 });
  };
}
