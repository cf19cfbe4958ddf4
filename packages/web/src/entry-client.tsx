import { hydrate, notifyManager, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
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

/**
 * A page the server rendered for the member's groups (their own bits left out) is read again as the member once it
 * is hydrated: their name in the header, their likes, what they bought (server: modules/web/group-render.ts). Then
 * `<html data-viewer>` turns from "pending" to "member" (tests and support tools know the page is the member's own).
 */
function ReadAsMember({ queryClient }: { queryClient: QueryClient }) {
  useEffect(() => {
    void queryClient.invalidateQueries().then(() => {
      // The query cache tells its observers on its next batch: marked after that batch's render, not before it.
      notifyManager.schedule(() => {
        document.documentElement.dataset.viewer = 'member';
      });
    });
  }, [queryClient]);
  return null;
}

/** A JSON data block of the page (the server writes data as such blocks, never as code the browser would run). */
function readDataBlock(id: string): unknown {
  const element = document.getElementById(id);
  if (!element?.textContent) throw new Error(`missing server state #${id}`);
  return JSON.parse(element.textContent);
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
  const catalogue = loadCatalogue(state.locale);
  const i18n = createI18nWith(state.locale, { [state.locale]: await catalogue });
  const pleaseLogin = (): string => i18n.t('auth.pleaseLogin');
  const ctx: AppContext = { queryClient, api: browserApi, isServer: false };
  const routes = createRoutes(ctx, pleaseLogin);

  // A guard that fired on the server handed the return address over in a cookie.
  const redirectedByGuard = adoptJumpUrlCookie();

  try {
    await loadInitialRoutes(routes);
  } catch (error) {
    // The router's error boundary shows the asset error page (with a reload button).
    console.error(error);
  }
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

  const container = document.getElementById('root');
  if (!container) throw new Error('missing #root');
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
  if (redirectedByGuard) toast.info(pleaseLogin());
}

main().catch((error: unknown) => console.error(error));
