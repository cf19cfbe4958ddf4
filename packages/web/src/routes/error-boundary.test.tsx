import { render, screen } from '@testing-library/react';
import { createMemoryRouter, data, RouterProvider, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app-providers';
import { createI18n } from '../i18n';
import { createQueryClient } from '../query-client';
import { loadWithTimeout } from '../routing/asset-loader';
import { fakeApi } from '../test/render';
import { PageErrorBoundary } from './error-boundary';

function renderRoute(route: RouteObject) {
  const router = createMemoryRouter([{ path: '/', ErrorBoundary: PageErrorBoundary, ...route }]);
  const ctx = { queryClient: createQueryClient(false), api: fakeApi({}), isServer: false };
  render(
    <AppProviders ctx={ctx} i18n={createI18n('zh')} platform="pc">
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('page error boundary', () => {
  it('offers a reload when a page chunk fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderRoute({
      lazy: async () => {
        await loadWithTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
        return {};
      },
    });
    expect(await screen.findByRole('heading', { name: '页面加载失败' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '重新加载' })).toBeTruthy();
  });

  it('shows 出bug了 页面暂时无法展示 for any other error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderRoute({
      loader: () => {
        throw new Error('boom');
      },
      Component: () => <p>never</p>,
    });
    expect(await screen.findByRole('heading', { name: '出bug了 页面暂时无法展示' })).toBeTruthy();
  });

  it('shows the not-found page for a 404 response', async () => {
    renderRoute({
      loader: () => {
        throw data(null, { status: 404 });
      },
      Component: () => <p>never</p>,
    });
    expect(await screen.findByRole('heading', { name: '资源不存在' })).toBeTruthy();
  });
});
