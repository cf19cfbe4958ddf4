import { afterEach, describe, expect, it, vi } from 'vitest';
import { pluginItem } from '../test/plugin-fixtures';
import { loadPluginModule } from './plugin-loader';

describe('plugin module loading', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the module exports, once per module URL', async () => {
    const importer = vi.fn(async () => ({ Hello: () => null }));
    const item = pluginItem();
    const first = await loadPluginModule(item, importer);
    const second = await loadPluginModule(item, importer);
    expect(first.ok && Object.keys(first.exports)).toEqual(['Hello']);
    expect(second).toBe(first);
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('gives up a module that fails to load, as an asset error', async () => {
    const result = await loadPluginModule(pluginItem(), () => Promise.reject(new TypeError('404')));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toBe('Failed to load script');
    expect(!result.ok && result.error.isAssetError).toBe(true);
  });

  it('gives up a module that has not loaded after 3800 ms', async () => {
    vi.useFakeTimers();
    let settled = false;
    const pending = loadPluginModule(pluginItem(), () => new Promise(() => undefined)).then((result) => {
      settled = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(3_799);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toBe('Route did not complete loading');
  });
});
