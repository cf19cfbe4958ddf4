import type { ComponentType } from 'react';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { contextOf, type AppContext, type AppContextSource } from '../app-context';
import { loadAdminCatalogue } from '../i18n/runtime';
import { canPrefetch, loadWithTimeout } from './asset-loader';
import type { RouteHandle } from './handle';

/** A back-office page: its module, once the back office's messages are in the catalogue (they are a chunk too). */
async function adminPage<T>(module: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([module, loadAdminCatalogue()]);
  return loaded;
}

export interface RouteModule {
  Component: ComponentType;
  handle?: RouteHandle;
  /** Fetches the page's data into the query cache (server and browser); what it returns feeds `handle.head`. */
  loader?: (ctx: AppContext, args: LoaderFunctionArgs) => Promise<unknown>;
}

/** Lazily loaded pages: their importer, and their source path (the key of the build manifest, for preloading). */
export const ROUTE_MODULES = {
  home: { load: () => import('../routes/home'), src: 'src/routes/home.tsx' },
  search: { load: () => import('../routes/search'), src: 'src/routes/search.tsx' },
  message: { load: () => import('../routes/message'), src: 'src/routes/message.tsx' },
  my: { load: () => import('../routes/my'), src: 'src/routes/my.tsx' },
  login: { load: () => import('../routes/login'), src: 'src/routes/login.tsx' },
  register: { load: () => import('../routes/register'), src: 'src/routes/register.tsx' },
  userStatus: { load: () => import('../routes/user-status'), src: 'src/routes/user-status.tsx' },
  supplementary: { load: () => import('../routes/supplementary'), src: 'src/routes/supplementary.tsx' },
  resetPassword: { load: () => import('../routes/reset-password'), src: 'src/routes/reset-password.tsx' },
  verifyEmail: { load: () => import('../routes/verify-email'), src: 'src/routes/verify-email.tsx' },
  thread: { load: () => import('../routes/thread'), src: 'src/routes/thread.tsx' },
  user: { load: () => import('../routes/user'), src: 'src/routes/user.tsx' },
  post: { load: () => import('../routes/post'), src: 'src/routes/post.tsx' },
  wallet: { load: () => import('../routes/wallet'), src: 'src/routes/wallet.tsx' },
  walletRecharge: { load: () => import('../routes/wallet-recharge'), src: 'src/routes/wallet-recharge.tsx' },
  paySandbox: { load: () => import('../routes/pay-sandbox'), src: 'src/routes/pay-sandbox.tsx' },
  partnerInvite: { load: () => import('../routes/partner-invite'), src: 'src/routes/partner-invite.tsx' },
  pluginPage: { load: () => import('../routes/plugin-page'), src: 'src/routes/plugin-page.tsx' },
  phoneLogin: { load: () => import('../routes/phone-login'), src: 'src/routes/phone-login.tsx' },
  bindPhone: { load: () => import('../routes/bind-phone'), src: 'src/routes/bind-phone.tsx' },
  rebind: { load: () => import('../routes/rebind'), src: 'src/routes/rebind.tsx' },
  resetPasswordSms: { load: () => import('../routes/reset-password-sms'), src: 'src/routes/reset-password-sms.tsx' },
  wxLogin: { load: () => import('../routes/wx-login'), src: 'src/routes/wx-login.tsx' },
  wxAuth: { load: () => import('../routes/wx-auth'), src: 'src/routes/wx-auth.tsx' },
  wxBind: { load: () => import('../routes/wx-bind'), src: 'src/routes/wx-bind.tsx' },
  topic: { load: () => import('../routes/topic'), src: 'src/routes/topic.tsx' },
  topics: { load: () => import('../routes/topics'), src: 'src/routes/topics.tsx' },
  // The back office: its own chunks, loaded only when an administrator opens it.
  admin: { load: () => adminPage(import('../admin/admin-layout')), src: 'src/admin/admin-layout.tsx' },
  adminSettings: { load: () => adminPage(import('../admin/settings-page')), src: 'src/admin/settings-page.tsx' },
  adminCategories: { load: () => adminPage(import('../admin/categories-page')), src: 'src/admin/categories-page.tsx' },
  adminGroups: { load: () => adminPage(import('../admin/groups-page')), src: 'src/admin/groups-page.tsx' },
  adminPermissions: {
    load: () => adminPage(import('../admin/permissions-page')),
    src: 'src/admin/permissions-page.tsx',
  },
  adminUsers: { load: () => adminPage(import('../admin/users-page')), src: 'src/admin/users-page.tsx' },
  adminReview: { load: () => adminPage(import('../admin/review-page')), src: 'src/admin/review-page.tsx' },
  adminReports: { load: () => adminPage(import('../admin/reports-page')), src: 'src/admin/reports-page.tsx' },
  agreement: { load: () => import('../routes/agreement'), src: 'src/routes/agreement.tsx' },
  adminSigninFields: {
    load: () => adminPage(import('../admin/signin-fields-page')),
    src: 'src/admin/signin-fields-page.tsx',
  },
  adminTemplates: { load: () => adminPage(import('../admin/templates-page')), src: 'src/admin/templates-page.tsx' },
  adminStopWords: { load: () => adminPage(import('../admin/stop-words-page')), src: 'src/admin/stop-words-page.tsx' },
  adminPlugins: { load: () => adminPage(import('../admin/plugins-page')), src: 'src/admin/plugins-page.tsx' },
  adminFinance: { load: () => adminPage(import('../admin/finance-page')), src: 'src/admin/finance-page.tsx' },
  adminWithdrawals: {
    load: () => adminPage(import('../admin/withdrawals-page')),
    src: 'src/admin/withdrawals-page.tsx',
  },
  adminPaySettings: {
    load: () => adminPage(import('../admin/pay-settings-page')),
    src: 'src/admin/pay-settings-page.tsx',
  },
  adminMessaging: { load: () => adminPage(import('../admin/messaging-page')), src: 'src/admin/messaging-page.tsx' },
  adminOauth: { load: () => adminPage(import('../admin/oauth-page')), src: 'src/admin/oauth-page.tsx' },
  adminWebhooks: { load: () => adminPage(import('../admin/webhooks-page')), src: 'src/admin/webhooks-page.tsx' },
  adminBackups: { load: () => adminPage(import('../admin/backups-page')), src: 'src/admin/backups-page.tsx' },
  adminApiKeys: { load: () => adminPage(import('../admin/api-keys-page')), src: 'src/admin/api-keys-page.tsx' },
} satisfies Record<string, { load: () => Promise<RouteModule>; src: string }>;

export type RouteModuleId = keyof typeof ROUTE_MODULES;

/**
 * A page module. In the browser a chunk that does not come within the spec's time is given up (an asset error the page
 * shows). On the server the module is a file of this machine, imported once for the process: it is waited for, as a
 * give-up there would be kept by the process's route table (React Router keeps a lazy route's failed promise) and
 * break that page for every later visitor of a busy moment.
 */
function loadPage(id: RouteModuleId): Promise<RouteModule> {
  const load = ROUTE_MODULES[id].load as () => Promise<RouteModule>;
  return typeof window === 'undefined' ? load() : loadWithTimeout<RouteModule>(load);
}

/** A route's `lazy`: the page chunk, flagged as an asset error when it fails or takes over 3800 ms. */
export function lazyPage(id: RouteModuleId): RouteObject['lazy'] {
  return async () => {
    const module = await loadPage(id);
    return { Component: module.Component, handle: module.handle };
  };
}

type Guard = (args: LoaderFunctionArgs) => Promise<unknown>;

/**
 * A route's loader: the guard first (it may redirect), then the page module's own loader, if it has one. The module
 * import is shared with `lazy`, so the chunk loads once.
 */
export function pageLoader(source: AppContextSource, id: RouteModuleId, guard?: Guard): RouteObject['loader'] {
  // Once loaded, the module is at hand: the server's route table serves every request of the process.
  let loaded: RouteModule | undefined;
  return async (args: LoaderFunctionArgs) => {
    if (guard) await guard(args);
    const module = (loaded ??= await loadPage(id));
    return module.loader ? module.loader(contextOf(source, args), args) : null;
  };
}

/** Which page module a path needs (for prefetching on intent). */
const PREFETCH_PATHS: Record<string, RouteModuleId> = {
  '/': 'home',
  '/search': 'search',
  '/topics': 'topics',
  '/message': 'message',
  '/my': 'my',
  '/user/login': 'login',
  '/user/register': 'register',
  '/user/reset-password': 'resetPassword',
  '/user/phone-login': 'phoneLogin',
  '/thread/post': 'post',
  '/wallet': 'wallet',
  '/wallet/recharge': 'walletRecharge',
};

/** The page module of a common path (the pages worth prefetching), or undefined. */
export function routeModuleOf(to: string): RouteModuleId | undefined {
  const path = to.split(/[?#]/)[0] ?? to;
  return (
    PREFETCH_PATHS[path] ?? (/^\/thread\/\d+$/.test(path) ? 'thread' : /^\/user\/\d+$/.test(path) ? 'user' : undefined)
  );
}

/** Loads a page's code ahead of a click, unless the connection asks to save data (save-data, 2g). */
export function prefetchRoute(to: string): boolean {
  const id = routeModuleOf(to);
  if (!id || !canPrefetch()) return false;
  ROUTE_MODULES[id].load().catch(() => undefined);
  return true;
}
