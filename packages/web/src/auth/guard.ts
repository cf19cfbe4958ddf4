import { redirect, type LoaderFunctionArgs } from 'react-router';
import { forumQuery } from '../api/queries';
import { contextOf, type AppContextSource } from '../app-context';
import { toast } from '../components/ui';
import { jumpUrlCookie, saveJumpUrl } from './jump-url';

export const LOGIN_PATH = '/user/login';

/**
 * A loader for pages that need a login. A guest is sent to /user/login, the address having been saved as the
 * return address (in session storage in the browser; handed over in a short-lived cookie when the server renders).
 */
export function requireLogin(source: AppContextSource, pleaseLogin: () => string) {
  return async (args: LoaderFunctionArgs): Promise<null> => {
    const ctx = contextOf(source, args);
    const forum = await ctx.queryClient.ensureQueryData(forumQuery(ctx.api));
    if (forum.Code === 0 && forum.Data.user) return null;
    const url = new URL(args.request.url);
    const address = url.pathname + url.search;
    if (ctx.isServer) {
      throw redirect(LOGIN_PATH, { headers: { 'Set-Cookie': jumpUrlCookie(address) } });
    }
    saveJumpUrl(address);
    toast.info(pleaseLogin());
    throw redirect(LOGIN_PATH);
  };
}

/** The sign-in pages send an already signed-in user home. */
export function guestOnly(source: AppContextSource) {
  return async (args: LoaderFunctionArgs): Promise<null> => {
    const ctx = contextOf(source, args);
    const forum = await ctx.queryClient.ensureQueryData(forumQuery(ctx.api));
    if (forum.Code === 0 && forum.Data.user) throw redirect('/');
    return null;
  };
}
