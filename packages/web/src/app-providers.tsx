import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { StrictMode, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { AppContextProvider, type AppContext } from './app-context';
import { ToastHost } from './components/ui';
import { PlatformProvider } from './platform/platform-context';
import type { Platform } from './platform/platform';
import './styles/index.css';

export interface AppProvidersProps {
  ctx: AppContext;
  i18n: I18n;
  platform: Platform;
  children: ReactNode;
}

/** Everything around the router, the same on the server and in the browser (hydration needs both to match). */
export function AppProviders({ ctx, i18n, platform, children }: AppProvidersProps) {
  return (
    <StrictMode>
      <AppContextProvider value={ctx}>
        <QueryClientProvider client={ctx.queryClient}>
          <I18nextProvider i18n={i18n}>
            <PlatformProvider initial={platform}>
              {children}
              <ToastHost />
            </PlatformProvider>
          </I18nextProvider>
        </QueryClientProvider>
      </AppContextProvider>
    </StrictMode>
  );
}
