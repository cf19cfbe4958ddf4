import type { SessionData } from '@luntan/shared';
import { forumQuery } from '../api/queries';
import { isSuccess, request, type ApiResult } from '../api/dispatcher';
import type { ParameterSchema } from '../api/validate';
import { toast } from '../components/ui';
import { clearAccessToken, saveAccessToken } from '../api/token-store';
import type { AppContext } from '../app-context';
import { takeJumpUrl } from './jump-url';
import { endpoints } from '../api/endpoints';

/**
 * After a successful login or registration: keep the token (local storage; the server already set the cookie),
 * reload who the viewer is, and answer where to go (the saved return address, cleared, or '/').
 */
export async function completeSignIn(ctx: AppContext, session: SessionData): Promise<string> {
  saveAccessToken(session.accessToken);
  ctx.queryClient.removeQueries({ queryKey: ['unread'] });
  await ctx.queryClient.fetchQuery({ ...forumQuery(ctx.api), staleTime: 0 });
  return takeJumpUrl();
}

/** Forgets the session on this device; the viewer is reloaded (now a guest). */
export async function forgetSession(ctx: AppContext): Promise<void> {
  clearAccessToken();
  ctx.queryClient.removeQueries({ queryKey: ['unread'] });
  await ctx.queryClient.fetchQuery({ ...forumQuery(ctx.api), staleTime: 0 });
}

/** Logs out on the server (revokes the token, clears the cookie), then forgets it here. */
export async function logout(ctx: AppContext): Promise<void> {
  await request({ url: endpoints.users.logout, method: 'POST', data: {}, handleError: false });
  await forgetSession(ctx);
}

/**
 * Sends a sign-in form (login or registration). Failures (wrong password, banned, too many attempts, a taken name)
 * are shown in a toast here rather than redirected by the shared handler; on success the session is stored and the
 * reader goes to the saved return address.
 */
export async function submitSignIn(
  ctx: AppContext,
  navigate: (to: string, options: { replace: boolean }) => void | Promise<void>,
  call: { url: string; data: unknown; validator: ParameterSchema; successText: string },
): Promise<ApiResult<SessionData>> {
  const result = await request<SessionData>({
    url: call.url,
    method: 'POST',
    data: call.data,
    validator: call.validator,
    handleError: false,
  });
  if (!isSuccess(result)) {
    toast.error(result.Message);
    return result;
  }
  const next = await completeSignIn(ctx, result.Data);
  toast.success(call.successText);
  await navigate(next, { replace: true });
  return result;
}
