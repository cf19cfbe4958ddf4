import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { PARTNER_INVITE_PATH } from './api/error-handler';
import { forumQuery, unreadQuery } from './api/queries';
import { loaderPlatform, pluginListQuery } from './plugin-runtime/plugin-list';
import { contextOf, type AppContextSource } from './app-context';
import { adminOnly } from './admin/admin-guard';
import { guestOnly, requireLogin } from './auth/guard';
import { LOGIN_REQUIRED_ROUTES } from './auth/guarded-routes';
import { AppShell } from './layouts/app-shell';
import { PageErrorBoundary, RootErrorBoundary } from './routes/error-boundary';
import { NotFoundPage, handle as notFoundHandle } from './routes/not-found';
import { lazyPage, pageLoader, type RouteModuleId } from './routing/route-modules';

/**
 * The route table. One set of routes for both layouts: the shell picks the desktop or mobile header around the same
 * page element (layouts/app-shell.tsx), pages are shared. Every page renders on the server first; the browser hydrates it.
 */
/** Login-required routes whose pages exist (the others show the not-found page behind the guard). */
const BUILT_GUARDED_PAGES = new Set([
  '/user/status',
  '/user/supplementary',
  '/wallet',
  '/wallet/recharge',
  '/forum/partner-invite',
  // The agreements are public: a newcomer reads them before registering (the spec lists the page among the guarded).
  '/user/agreement',
  // The spec lists it with the login pages, but a forgotten password is a visitor's problem: open to everyone.
  '/user/reset-password',
  '/user/phone-login',
  '/user/bind-phone',
  '/user/rebind',
  '/user/wx-login',
  '/user/wx-auth',
  '/user/wx-bind',
]);

/** Pages a member who owes the joining fee may open: paying it, the sandbox checkout, the sign-in pages, 404. */
function openToUnpaid(pathname: string): boolean {
  return (
    pathname === PARTNER_INVITE_PATH ||
    pathname === '/pay/sandbox' ||
    pathname.startsWith('/user/') ||
    pathname === '/404'
  );
}

/**
 * `ctx`: the browser's AppContext, or how a loader finds its request's (the server builds the table once per process).
 */
export function createRoutes(ctx: AppContextSource, pleaseLogin: () => string): RouteObject[] {
  const loginRequired = requireLogin(ctx, pleaseLogin);
  const admin = adminOnly(ctx);
  /** A back-office page: every level checks, so nobody else's call reaches an admin API (they get not-found). */
  const adminPage = (id: RouteModuleId, path?: string): RouteObject => ({
    id,
    ...(path ? { path } : { index: true }),
    loader: pageLoader(ctx, id, admin),
    lazy: lazyPage(id),
  });

  /** A member's page: a guest whose group may not view users is asked to log in (the server would answer -3001). */
  const userViewRequired = async (args: LoaderFunctionArgs): Promise<null> => {
    const { queryClient, api } = contextOf(ctx, args);
    const forum = await queryClient.ensureQueryData(forumQuery(api));
    if (forum.Code === 0 && !forum.Data.user && !forum.Data.other.canViewUser) return loginRequired(args);
    return null;
  };

  const rootLoader = async (args: LoaderFunctionArgs): Promise<null> => {
    const { request } = args;
    const { queryClient, api, isServer } = contextOf(ctx, args);
    const forum = await queryClient.ensureQueryData(forumQuery(api));
    // A member who owes the joining fee gets -3006 from every other call: the first page is the invitation to pay
    // (later navigations follow the -3006 answers through the shared error handler).
    const user = forum.Code === 0 ? forum.Data.user : null;
    if (user && user.paid === false && !openToUnpaid(new URL(request.url).pathname)) {
      throw redirect(PARTNER_INVITE_PATH);
    }
    const userId = user?.userId;
    await Promise.all([
      // The badge is in the first HTML too; the header refreshes it at once after hydration and every 60 s.
      isServer && userId ? queryClient.ensureQueryData(unreadQuery(api, userId)) : null,
      // The enabled plugins of the layout: the server's page and the browser's first render agree on them.
      queryClient.ensureQueryData(pluginListQuery(api, loaderPlatform(request, isServer))),
    ]);
    return null;
  };

  return [
    {
      id: 'root',
      path: '/',
      loader: rootLoader,
      // The viewer and the site live in the query cache, which login and logout refresh themselves.
      shouldRevalidate: () => false,
      Component: AppShell,
      ErrorBoundary: RootErrorBoundary,
      children: [
        {
          id: 'page',
          ErrorBoundary: PageErrorBoundary,
          children: [
            { id: 'home', index: true, loader: pageLoader(ctx, 'home'), lazy: lazyPage('home') },
            { id: 'search', path: 'search', loader: pageLoader(ctx, 'search'), lazy: lazyPage('search') },
            {
              id: 'message',
              path: 'message',
              loader: pageLoader(ctx, 'message', loginRequired),
              lazy: lazyPage('message'),
            },
            { id: 'my', path: 'my', loader: pageLoader(ctx, 'my', loginRequired), lazy: lazyPage('my') },
            {
              id: 'login',
              path: 'user/login',
              loader: pageLoader(ctx, 'login', guestOnly(ctx)),
              lazy: lazyPage('login'),
            },
            {
              id: 'register',
              path: 'user/register',
              loader: pageLoader(ctx, 'register', guestOnly(ctx)),
              lazy: lazyPage('register'),
            },
            // Phones and SMS (docs/sms.md).
            {
              id: 'phoneLogin',
              path: 'user/phone-login',
              loader: pageLoader(ctx, 'phoneLogin', guestOnly(ctx)),
              lazy: lazyPage('phoneLogin'),
            },
            {
              id: 'bindPhone',
              path: 'user/bind-phone',
              loader: pageLoader(ctx, 'bindPhone', loginRequired),
              lazy: lazyPage('bindPhone'),
            },
            {
              id: 'rebind',
              path: 'user/rebind',
              loader: pageLoader(ctx, 'rebind', loginRequired),
              lazy: lazyPage('rebind'),
            },
            // The SMS way of /user/reset-password, also on its own.
            {
              id: 'resetPasswordSms',
              path: 'user/reset-password/sms',
              loader: pageLoader(ctx, 'resetPasswordSms'),
              lazy: lazyPage('resetPasswordSms'),
            },
            {
              id: 'agreement',
              path: 'user/agreement',
              loader: pageLoader(ctx, 'agreement'),
              lazy: lazyPage('agreement'),
            },
            {
              id: 'resetPassword',
              path: 'user/reset-password',
              loader: pageLoader(ctx, 'resetPassword'),
              lazy: lazyPage('resetPassword'),
            },
            // The mailed verification link: no login needed (the link proves the address).
            {
              id: 'verifyEmail',
              path: 'user/verify-email',
              loader: pageLoader(ctx, 'verifyEmail'),
              lazy: lazyPage('verifyEmail'),
            },
            // WeChat sign-in (docs/accounts-oauth.md): the QR code or WeChat's authorisation, and its way back.
            {
              id: 'wxLogin',
              path: 'user/wx-login',
              loader: pageLoader(ctx, 'wxLogin', guestOnly(ctx)),
              lazy: lazyPage('wxLogin'),
            },
            { id: 'wxAuth', path: 'user/wx-auth', loader: pageLoader(ctx, 'wxAuth'), lazy: lazyPage('wxAuth') },
            {
              id: 'wxBind',
              path: 'user/wx-bind',
              loader: pageLoader(ctx, 'wxBind', loginRequired),
              lazy: lazyPage('wxBind'),
            },
            {
              id: 'userStatus',
              path: 'user/status',
              loader: pageLoader(ctx, 'userStatus', loginRequired),
              lazy: lazyPage('userStatus'),
            },
            {
              id: 'supplementary',
              path: 'user/supplementary',
              loader: pageLoader(ctx, 'supplementary', loginRequired),
              lazy: lazyPage('supplementary'),
            },
            {
              id: 'user',
              path: 'user/:userId',
              loader: pageLoader(ctx, 'user', userViewRequired),
              lazy: lazyPage('user'),
            },
            { id: 'thread', path: 'thread/:threadId', loader: pageLoader(ctx, 'thread'), lazy: lazyPage('thread') },
            // Topics (#name#): one topic's threads, and the list of topics.
            { id: 'topic', path: 'topic/:topicId', loader: pageLoader(ctx, 'topic'), lazy: lazyPage('topic') },
            { id: 'topics', path: 'topics', loader: pageLoader(ctx, 'topics'), lazy: lazyPage('topics') },
            // New thread, or ?threadId= to edit one.
            { id: 'post', path: 'thread/post', loader: pageLoader(ctx, 'post', loginRequired), lazy: lazyPage('post') },
            // The member's money (docs/money.md).
            {
              id: 'wallet',
              path: 'wallet',
              loader: pageLoader(ctx, 'wallet', loginRequired),
              lazy: lazyPage('wallet'),
            },
            {
              id: 'walletRecharge',
              path: 'wallet/recharge',
              loader: pageLoader(ctx, 'walletRecharge', loginRequired),
              lazy: lazyPage('walletRecharge'),
            },
            // The sandbox provider's checkout (its payUrl): the order's payer only.
            {
              id: 'paySandbox',
              path: 'pay/sandbox',
              loader: pageLoader(ctx, 'paySandbox', loginRequired),
              lazy: lazyPage('paySandbox'),
            },
            {
              id: 'partnerInvite',
              path: 'forum/partner-invite',
              loader: pageLoader(ctx, 'partnerInvite', loginRequired),
              lazy: lazyPage('partnerInvite'),
            },
            // A page that a plugin adds (add_page_hook): /plugin/<appid>/<path>.
            {
              id: 'pluginPage',
              path: 'plugin/:appid/*',
              loader: pageLoader(ctx, 'pluginPage'),
              lazy: lazyPage('pluginPage'),
            },
            {
              id: 'admin',
              path: 'admin',
              loader: pageLoader(ctx, 'admin', admin),
              lazy: lazyPage('admin'),
              children: [
                adminPage('adminSettings'),
                adminPage('adminCategories', 'categories'),
                adminPage('adminGroups', 'groups'),
                adminPage('adminPermissions', 'groups/:groupId/permissions'),
                adminPage('adminUsers', 'users'),
                adminPage('adminStopWords', 'stop-words'),
                adminPage('adminReview', 'review'),
                adminPage('adminReports', 'reports'),
                adminPage('adminSigninFields', 'signin-fields'),
                adminPage('adminTemplates', 'templates'),
                adminPage('adminPlugins', 'plugins'),
                adminPage('adminFinance', 'finance'),
                adminPage('adminWithdrawals', 'withdrawals'),
                adminPage('adminPaySettings', 'pay-settings'),
                adminPage('adminMessaging', 'messaging'),
                adminPage('adminOauth', 'oauth'),
                adminPage('adminWebhooks', 'webhooks'),
                adminPage('adminBackups', 'backups'),
                adminPage('adminApiKeys', 'apikeys'),
              ],
            },
            { id: 'not-found-page', path: '404', Component: NotFoundPage, handle: notFoundHandle },
            // Pages that later issues build: the guard already protects them; until then they are not found.
            ...LOGIN_REQUIRED_ROUTES.filter((path) => !BUILT_GUARDED_PAGES.has(path)).map((path): RouteObject => ({
              id: `guarded:${path}`,
              path: path.slice(1),
              loader: loginRequired,
              Component: NotFoundPage,
              handle: notFoundHandle,
            })),
            { id: 'not-found', path: '*', Component: NotFoundPage, handle: notFoundHandle },
          ],
        },
      ],
    },
  ];
}
