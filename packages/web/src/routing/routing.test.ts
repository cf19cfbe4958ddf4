import { ASSET_LOAD_TIMEOUT_MS } from '@luntan/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { AssetError, assetLoadTimeoutMs, canPrefetch, isAssetError, loadWithTimeout } from './asset-loader';
import { documentTitle, isNotFoundMatch, shownMatches } from './handle';

afterEach(() => vi.useRealTimers());

describe('document title', () => {
  const zh = createI18n('zh');
  it('is the site name, or 欢迎 without one, with the page part before it', () => {
    expect(documentTitle([{ handle: {} }], zh.t, 'Forum')).toBe('Forum');
    expect(documentTitle([{ handle: {} }], zh.t, '')).toBe('欢迎');
    expect(documentTitle([{}, { handle: { title: () => '登录' } }], zh.t, undefined)).toBe('登录 - 欢迎');
    expect(documentTitle([{ handle: { title: () => 'Search' } }], zh.t, 'Forum')).toBe('Search - Forum');
  });

  it('is the not-found title when a loader refused with a 404, not the title of the refused page', () => {
    const notFound = { title: () => '资源不存在', notFound: true };
    const matches = [
      { id: 'root', handle: {} },
      { id: 'page', handle: {} },
      { id: 'admin', handle: { title: () => '管理后台' } },
      { id: 'adminSettings', handle: { title: () => '站点设置' } },
    ];
    // A 404 as the router records it in `errors`, by the id of the boundary's route.
    const errors = { page: { status: 404, statusText: 'Not Found', internal: false, data: null } };
    expect(documentTitle(shownMatches(matches, errors, notFound), zh.t, 'Forum')).toBe('资源不存在 - Forum');
    expect(isNotFoundMatch(shownMatches(matches, errors, notFound))).toBe(true);
    expect(documentTitle(shownMatches(matches, null, notFound), zh.t, 'Forum')).toBe('站点设置 - Forum');
    const bug = { page: new Error('boom') };
    expect(documentTitle(shownMatches(matches, bug, notFound), zh.t, 'Forum')).toBe('站点设置 - Forum');
  });

  it('spots the not-found page', () => {
    expect(isNotFoundMatch([{}, { handle: { notFound: true } }])).toBe(true);
    expect(isNotFoundMatch([{}, { handle: {} }])).toBe(false);
  });
});

describe('asset loading', () => {
  it('gives up after 3800 ms and flags an asset error', async () => {
    vi.useFakeTimers();
    const pending = loadWithTimeout(() => new Promise<never>(() => undefined));
    let settled = false;
    const outcome = pending.catch((error: unknown) => error).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(ASSET_LOAD_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(AssetError);
    expect(isAssetError(error)).toBe(true);
    expect((error as Error).message).toBe('Route did not complete loading');
  });

  it('gives up after the time the page was given instead, when it was given one (browser tests)', async () => {
    vi.useFakeTimers();
    window.__LUNTAN_ASSET_TIMEOUT_MS__ = 60_000;
    try {
      expect(assetLoadTimeoutMs()).toBe(60_000);
      let settled = false;
      const outcome = loadWithTimeout(() => new Promise<never>(() => undefined))
        .catch((error: unknown) => error)
        .finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(59_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(isAssetError(await outcome)).toBe(true);
    } finally {
      delete window.__LUNTAN_ASSET_TIMEOUT_MS__;
    }
    expect(assetLoadTimeoutMs()).toBe(ASSET_LOAD_TIMEOUT_MS);
  });

  it('flags a chunk that fails to load', async () => {
    const error = await loadWithTimeout(() => Promise.reject(new TypeError('dynamic import failed'))).catch(
      (e: unknown) => e,
    );
    expect(isAssetError(error)).toBe(true);
    expect((error as Error).message).toBe('Failed to load script');
  });

  it('passes a module through', async () => {
    await expect(loadWithTimeout(() => Promise.resolve({ ok: 1 }))).resolves.toEqual({ ok: 1 });
    expect(isAssetError(new Error('other'))).toBe(false);
  });

  it('skips prefetching on save-data and 2g connections', () => {
    expect(canPrefetch({ saveData: true, effectiveType: '4g' })).toBe(false);
    expect(canPrefetch({ effectiveType: '2g' })).toBe(false);
    expect(canPrefetch({ effectiveType: 'slow-2g' })).toBe(false);
    expect(canPrefetch({ effectiveType: '4g' })).toBe(true);
    expect(canPrefetch(undefined)).toBe(true);
  });
});
