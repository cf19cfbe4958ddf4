import { redirect, type LoaderFunctionArgs } from 'react-router';
import { forumQuery } from '../api/queries';
import type { AppContext } from '../app-context';
import { toast } from '../components/ui';
import { jumpUrlCookie, saveJumpUrl } from './jump-url';

export const LOGIN_PATH = '/user/login';

/**
 * A loader for pages that need a login. A guest is sent to /user/login, the address having been saved as the
 * return address (in session storage in the browser; handed over in a short-lived cookie when the server renders).
 */
export function requireLogin(ctx: AppContext, pleaseLogin: () => string) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const forum = await ctx.queryClient.ensureQueryData(forumQuery(ctx.api));
    if (forum.Code === 0 && forum.Data.user) return null;
    const url = new URL(request.url);
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
export function guestOnly(ctx: AppContext) {
  return async (): Promise<null> => {
    const forum = await ctx.queryClient.ensureQueryData(forumQuery(ctx.api));
    if (forum.Code === 0 && forum.Data.user) throw redirect('/');
    return null;
  };
}
