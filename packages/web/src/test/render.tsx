import type { Forum, Locale } from '@luntan/shared';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
// 'react-router' (not 'react-router/dom'): the dom entry would load a second, CommonJS copy under vitest.
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { ApiClient } from '../api/client';
import type { ApiResult } from '../api/dispatcher';
import { forumKey } from '../api/queries';
import { AppProviders } from '../app-providers';
import type { AppContext } from '../app-context';
import { createI18n } from '../i18n';
import type { Platform } from '../platform/platform';
import { createQueryClient } from '../query-client';
import { envelope } from './fixtures';

export interface TestApi extends ApiClient {
  /** Every call made, in order. */
  calls: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown }>;
}

/** A fake API answering by path; unknown paths answer -4004. */
export function fakeApi(answers: Record<string, (body?: unknown) => unknown>): TestApi {
  const calls: TestApi['calls'] = [];
  const answer = async <T,>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult<T>> => {
    calls.push({ method, path, body });
    const handler = answers[path.split('?')[0]!];
    if (!handler) return envelope({}, -4004, 'not found') as unknown as ApiResult<T>;
    return envelope(handler(body)) as unknown as ApiResult<T>;
  };
  return {
    calls,
    get: <T,>(path: string) => answer<T>('GET', path),
    post: <T,>(path: string, body?: unknown) => answer<T>('POST', path, body),
  };
}

export interface RenderAppOptions {
  forum?: Forum | null;
  api?: ApiClient;
  locale?: Locale;
  platform?: Platform;
  path?: string;
  /** Extra routes beside the element under test. */
  routes?: RouteObject[];
}

export function renderWithApp(
  element: ReactElement,
  options: RenderAppOptions = {},
): RenderResult & { ctx: AppContext; router: ReturnType<typeof createMemoryRouter> } {
  const queryClient = createQueryClient(false);
  const api = options.api ?? fakeApi({});
  if (options.forum !== undefined && options.forum !== null) {
    queryClient.setQueryData(forumKey, envelope(options.forum));
  }
  const ctx: AppContext = { queryClient, api, isServer: false };
  const i18n = createI18n(options.locale ?? 'zh');
  const router = createMemoryRouter([{ path: '*', element }, ...(options.routes ?? [])], {
    initialEntries: [options.path ?? '/'],
  });
  const result = render(
    <AppProviders ctx={ctx} i18n={i18n} platform={options.platform ?? 'pc'}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, ctx, router };
}
