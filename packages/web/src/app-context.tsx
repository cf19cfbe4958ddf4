import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
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

const AppContextValue = createContext<AppContext | null>(null);

export const AppContextProvider = AppContextValue.Provider;

export function useAppContext(): AppContext {
  const value = useContext(AppContextValue);
  if (!value) throw new Error('useAppContext needs <AppContextProvider>');
  return value;
}
