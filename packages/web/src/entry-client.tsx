import { hydrate, notifyManager, type QueryClient } from '@tanstack/react-query';
import { startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { browserApi } from './api/client';
import { setErrorListener } from './api/dispatcher';
import { createErrorHandler } from './api/error-handler';
import { AppProviders } from './app-providers';
import type { AppContext } from './app-context';
import { adoptJumpUrlCookie, saveJumpUrl } from './auth/jump-url';
import { forgetSession } from './auth/session';
import { BOOT_STATE_ELEMENT_ID, ROUTER_STATE_ELEMENT_ID, type BootState } from './boot-state';
import { PluginErrorBoundary } from './components/plugin/plugin-slot';
import { toast } from './components/ui';
import { createI18nWith, loadCatalogue } from './i18n/runtime';
import { createQueryClient } from './query-client';
import { createRoutes } from './route-table';
import { registerServiceWorker } from './platform/service-worker';

/**
 * A page the server rendered for the member's groups (their own bits left out) is read again as the member once it
 * is hydrated: their name in the header, their likes, what they bought (server: modules/web/group-render.ts). Then
 * `<html data-viewer>` turns from "pending" to "member" (tests and support tools know the page is the member's own).
 */
function ReadAsMember({ queryClient }: { queryClient: QueryClient }) {
  useEffect(() => {
    void readAgainAsMember(queryClient).then(() => {
      // The query cache tells its observers on its next batch: marked after that batch's render, not before it.
      notifyManager.schedule(() => {
        document.documentElement.dataset.viewer = 'member';
      });
    });
  }, [queryClient]);
  return null;
}

/**
 * Every query of the page read again, each started in a task of its own: starting them all at once re-rendered every
 * component that shows one of them in a single task (80-90 ms at the phone profile's speed), which then blocked the
 * reader; one at a time each re-render is short, and the requests still go out together.
 */
async function readAgainAsMember(queryClient: QueryClient): Promise<void> {
  // All stale at once (nothing reads a group's answer as the member's meanwhile), none fetched yet.
  await queryClient.invalidateQueries({ refetchType: 'none' });
  const reads: Promise<void>[] = [];
  for (const query of queryClient.getQueryCache().findAll({ type: 'active' })) {
    reads.push(queryClient.refetchQueries({ queryKey: query.queryKey, exact: true, type: 'active' }));
    await yieldToBrowser();
  }
  await Promise.all(reads);
}

/** A JSON data block of the page (the server writes data as such blocks, never as code the browser would run). */
function readDataBlock(id: string): unknown {
  const element = document.getElementById(id);
  if (!element?.textContent) throw new Error(`missing server state #${id}`);
  return JSON.parse(element.textContent);
}

/**
 * Lets the browser in (input, a frame) before the next step of starting the app: on a slow phone each step (reading
 * the server's data, the language, matching the routes, starting the router) takes tens of milliseconds, and one
 * task for all of them would keep the page that is already shown from answering for as long.
 */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

declare global {
  interface Window {
    __staticRouterHydrationData?: unknown;
  }
}

/** Lazy pages matched by the first URL must be loaded before hydrating, or the first render would differ. */
async function loadInitialRoutes(routes: RouteObject[]): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}

async function main(): Promise<void> {
  const state = readDataBlock(BOOT_STATE_ELEMENT_ID) as BootState;
  // Where createBrowserRouter reads its hydration data (and turns serialized errors back into error objects).
  window.__staticRouterHydrationData = readDataBlock(ROUTER_STATE_ELEMENT_ID);
  const queryClient = createQueryClient(false);
  hydrate(queryClient, state.queries);
  // Only the page's language is loaded (the server preloads its chunk); it must be there before the first render.
  const messages = await loadCatalogue(state.locale);
  await yieldToBrowser();
  const i18n = createI18nWith(state.locale, { [state.locale]: messages });
  const pleaseLogin = (): string => i18n.t('auth.pleaseLogin');
  const ctx: AppContext = { queryClient, api: browserApi, isServer: false };
  const routes = createRoutes(ctx, pleaseLogin);

  // A guard that fired on the server handed the return address over in a cookie.
  const redirectedByGuard = adoptJumpUrlCookie();

  await yieldToBrowser();
  try {
    await loadInitialRoutes(routes);
  } catch (error) {
    // The router's error boundary shows the asset error page (with a reload button).
    console.error(error);
  }
  await yieldToBrowser();
  const router = createBrowserRouter(routes);

  setErrorListener(
    createErrorHandler({
      navigate: (to) => void router.navigate(to),
      clearLogin: () => forgetSession(ctx),
      rememberLocation: () => {
        const { pathname, search } = router.state.location;
        saveJumpUrl(pathname + search);
        toast.info(pleaseLogin());
      },
      currentPath: () => router.state.location.pathname,
    }),
  );

  await yieldToBrowser();
  const container = document.getElementById('root');
  if (!container) throw new Error('missing #root');
  // Hydrated as a transition: React then works in slices of a few milliseconds and lets the browser in between,
  // instead of one task as long as the whole page (on a slow phone, a second or more of a page that looks ready but
  // ignores the reader). What is shown meanwhile is the server's HTML, so nothing waits to be seen; a click meanwhile
  // makes React finish hydrating at once and is then handled.
  startTransition(() => {
    hydrateRoot(
      container,
      <AppProviders ctx={ctx} i18n={i18n} platform={state.platform}>
        <RouterProvider router={router} />
        {state.forGroups ? <ReadAsMember queryClient={queryClient} /> : null}
      </AppProviders>,
      {
        // A plugin that throws is a console warning only (its slot's boundary writes it); other caught errors are
        // logged as React would.
        onCaughtError: (error, info) => {
          if (info.errorBoundary instanceof PluginErrorBoundary) return;
          console.error(error, info.componentStack);
        },
      },
    );
  });
  if (redirectedByGuard) toast.info(pleaseLogin());
  registerServiceWorker();
}

main().catch((error: unknown) => console.error(error));
