import type { LinkedAccounts, OauthPublicProviders } from '@luntan/shared';
import type { ApiClient } from './client';

/** The login page's sign-in buttons: enabled providers and whether WeChat is configured. */
export const oauthProvidersQuery = (api: ApiClient) => ({
  queryKey: ['oauth', 'providers'] as const,
  queryFn: () => api.get<OauthPublicProviders>('/api/v3/oauth/providers'),
});

/** The viewer's ways to sign in, for /my. */
/** The key of a member's linked accounts: read again after anything that changes them or `hasPassword`. */
export const linkedAccountsKey = (userId: number) => ['oauth', 'identities', userId] as const;

export const linkedAccountsQuery = (api: ApiClient, userId: number) => ({
  queryKey: linkedAccountsKey(userId),
  queryFn: () => api.get<LinkedAccounts>('/api/v3/oauth/identities'),
});

/** The address that starts a sign-in (or, with `link`, links a provider to the viewer's account). */
export function oauthStartUrl(slug: string, options: { redirect?: string; link?: boolean } = {}): string {
  const query = new URLSearchParams();
  if (options.redirect && options.redirect !== '/') query.set('redirect', options.redirect);
  if (options.link) query.set('link', '1');
  const q = query.toString();
  return `/api/v3/oauth/${encodeURIComponent(slug)}/start${q ? `?${q}` : ''}`;
}

/** WeChat's start on a phone: h5.oauth, which sends the browser to WeChat. */
export function wechatOauthUrl(type: 'login' | 'bind' | 'rebind', redirect?: string): string {
  const query = new URLSearchParams({ type });
  if (redirect && redirect !== '/') query.set('redirect', redirect);
  return `/api/v3/users/wechat/h5.oauth?${query.toString()}`;
}
