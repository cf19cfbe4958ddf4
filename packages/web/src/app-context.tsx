import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import type { ApiClient } from './api/client';

/**
 * What loaders and components share: the query cache and the API client. On the server there is one per request
 * (the API client is the server's in-process `api`); in the browser there is one for the page's life.
 */
export interface AppContext {
  queryClient: QueryClient;
  api: ApiClient;
  isServer: boolean;
}

/**
 * Where a loader finds the AppContext. The browser has one for the page's life; the server builds its route table
 * once per process and hands each request's to the loaders as their `context` (entry-server.tsx).
 */
export type AppContextSource = AppContext | ((args: LoaderFunctionArgs) => AppContext);

/** The AppContext of a loader's call. */
export function contextOf(source: AppContextSource, args: LoaderFunctionArgs): AppContext {
  return typeof source === 'function' ? source(args) : source;
}

const AppContextValue = createContext<AppContext | null>(null);

export const AppContextProvider = AppContextValue.Provider;

export function useAppContext(): AppContext {
  const value = useContext(AppContextValue);
  if (!value) throw new Error('useAppContext needs <AppContextProvider>');
  return value;
}
