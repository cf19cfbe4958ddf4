import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { canPrefetch, loadWithTimeout } from './asset-loader';
import type { RouteHandle } from './handle';

export interface RouteModule {
  Component: ComponentType;
  handle?: RouteHandle;
}

/** Lazily loaded pages: their importer, and their source path (the key of the build manifest, for preloading). */
export const ROUTE_MODULES = {
  home: { load: () => import('../routes/home'), src: 'src/routes/home.tsx' },
  search: { load: () => import('../routes/search'), src: 'src/routes/search.tsx' },
  message: { load: () => import('../routes/message'), src: 'src/routes/message.tsx' },
  my: { load: () => import('../routes/my'), src: 'src/routes/my.tsx' },
  login: { load: () => import('../routes/login'), src: 'src/routes/login.tsx' },
  register: { load: () => import('../routes/register'), src: 'src/routes/register.tsx' },
} satisfies Record<string, { load: () => Promise<RouteModule>; src: string }>;

export type RouteModuleId = keyof typeof ROUTE_MODULES;

/** A route's `lazy`: the page chunk, flagged as an asset error when it fails or takes over 3800 ms. */
export function lazyPage(id: RouteModuleId): RouteObject['lazy'] {
  return async () => {
    const module = await loadWithTimeout<RouteModule>(ROUTE_MODULES[id].load);
    return { Component: module.Component, handle: module.handle };
  };
}

/** Which page module a path needs (for prefetching on intent). */
const PREFETCH_PATHS: Record<string, RouteModuleId> = {
  '/': 'home',
  '/search': 'search',
  '/message': 'message',
  '/my': 'my',
  '/user/login': 'login',
  '/user/register': 'register',
};

/** Loads a page's code ahead of a click, unless the connection asks to save data (save-data, 2g). */
export function prefetchRoute(to: string): boolean {
  const path = to.split(/[?#]/)[0] ?? to;
  const id = PREFETCH_PATHS[path];
  if (!id || !canPrefetch()) return false;
  ROUTE_MODULES[id].load().catch(() => undefined);
  return true;
}
