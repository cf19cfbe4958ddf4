import type { PluginRenderProps } from '@luntan/plugin-sdk';
import type { PluginListItem } from '@luntan/shared';
import { act, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PluginRuntime } from '../../plugin-runtime/plugin-runtime';
import { registerPlugins, type LoadedPlugin } from '../../plugin-runtime/plugin-rules';
import { PluginStores } from '../../plugin-runtime/plugin-store';
import { PluginRuntimeContext, type PluginRuntimeValue } from '../../plugin-runtime/runtime-context';
import { forum, viewer } from '../../test/fixtures';
import { pluginItem } from '../../test/plugin-fixtures';
import { fakeApi, renderWithApp } from '../../test/render';
import { PluginSlot } from './plugin-slot';

/** A runtime whose modules have loaded: the registry of these plugins, and the shared inputs of a member. */
function runtime(loaded: LoadedPlugin[], overrides: Partial<PluginRuntimeValue> = {}): PluginRuntimeValue {
  const data = forum({ user: viewer() });
  const stores = new PluginStores(null);
  return {
    registry: registerPlugins(loaded, 'pc', vi.fn()),
    status: () => 'ready',
    inputs: {
      siteData: {
        site: data.setSite,
        permissions: data.permissions,
        abilities: data.other,
        platform: 'pc',
        locale: 'zh',
      },
      userInfo: data.user,
      isLogin: true,
    },
    stores,
    action: (appid) => ({
      setStore: (partial) => stores.set(appid, partial),
      call: () => Promise.resolve(null as never),
      navigate: () => undefined,
    }),
    ...overrides,
  };
}

function withRuntime(value: PluginRuntimeValue, children: ReactNode) {
  return <PluginRuntimeContext.Provider value={value}>{children}</PluginRuntimeContext.Provider>;
}

const at = (hookName: string, component = 'Widget', target = 'plugin_index', overrides: Partial<PluginListItem> = {}) =>
  pluginItem({ entries: [{ target: target as 'plugin_index', hookName, component }], ...overrides });

describe('plugin slots', () => {
  it('render their default content while no plugin fills them', () => {
    const { container } = renderWithApp(
      <PluginSlot target="plugin_index" hook="header_replace">
        <p>default header</p>
      </PluginSlot>,
    );
    expect(screen.getByText('default header')).toBeTruthy();
    expect(container.querySelector('[data-plugin-slot="plugin_index:header_replace"]')).not.toBeNull();
  });

  it('a replace hook swaps the default; an insert hook adds to it', () => {
    const Widget = () => <p>from plugin</p>;
    const value = runtime([
      { item: at('tabs_replace'), exports: { Widget } },
      { item: at('left_insert', 'Widget', 'plugin_index', { appid: 'other' }), exports: { Widget } },
    ]);
    renderWithApp(
      withRuntime(
        value,
        <>
          <PluginSlot target="plugin_index" hook="tabs_replace">
            <p>default tabs</p>
          </PluginSlot>
          <PluginSlot target="plugin_index" hook="left_insert">
            <p>default left</p>
          </PluginSlot>
        </>,
      ),
    );
    expect(screen.queryByText('default tabs')).toBeNull();
    expect(screen.getByText('default left')).toBeTruthy();
    expect(screen.getAllByText('from plugin')).toHaveLength(2);
  });

  it('gives every component the render inputs, and a store that setStore changes', async () => {
    let seen: PluginRenderProps | null = null;
    const Widget = (props: PluginRenderProps) => {
      seen = props;
      const count = Number(props.pluginStore.count ?? 0);
      return (
        <button type="button" onClick={() => props.pluginAction.setStore({ count: count + 1 })}>
          clicked {count}
        </button>
      );
    };
    const thread = { threadId: 5, title: 'T' } as never;
    renderWithApp(
      withRuntime(
        runtime([{ item: at('thread_extension_display_hook'), exports: { Widget } }]),
        <PluginSlot
          target="plugin_index"
          hook="thread_extension_display_hook"
          renderData={{ a: 1 }}
          threadData={thread}
        />,
      ),
    );
    expect(seen).toMatchObject({
      renderData: { a: 1 },
      threadData: { threadId: 5 },
      isLogin: true,
      userInfo: { userId: 7 },
      siteData: { platform: 'pc', locale: 'zh', site: { siteName: 'Test Forum' } },
      plugin: { appid: 'hello', hookName: 'thread_extension_display_hook', target: 'plugin_index' },
    });
    await act(async () => screen.getByRole('button', { name: 'clicked 0' }).click());
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeTruthy();
  });

  it('renders nothing and warns 插件必须传入参数 when a required input is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const Widget = Object.assign(() => <p>needs a thread</p>, { requiredProps: ['threadData'] as const });
    const value = runtime([{ item: at('right_insert'), exports: { Widget } }]);
    renderWithApp(
      withRuntime(
        value,
        <>
          <PluginSlot target="plugin_index" hook="right_insert" />
          <PluginSlot target="plugin_index" hook="right_insert" threadData={{ threadId: 1 } as never} />
        </>,
      ),
    );
    expect(screen.getAllByText('needs a thread')).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith('插件必须传入参数', expect.stringContaining('threadData'));
  });

  it('catches a plugin that throws and keeps the default content', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const Widget = (): never => {
      throw new Error('boom');
    };
    renderWithApp(
      withRuntime(
        runtime([{ item: at('footer_replace', 'Widget', 'plugin_global'), exports: { Widget } }]),
        <PluginSlot target="plugin_global" hook="footer_replace">
          <p>default footer</p>
        </PluginSlot>,
      ),
    );
    expect(screen.getByText('default footer')).toBeTruthy();
    expect(warn).toHaveBeenCalledWith('[plugin] Hello failed to render', expect.any(Error), expect.anything());
  });
});

describe('the plugin runtime', () => {
  const slot = (
    <PluginRuntime
      importer={async (url) =>
        url.includes('broken') ? Promise.reject(new Error('404')) : { Widget: () => <p>plugin {url.split('/')[2]}</p> }
      }
    >
      <PluginSlot target="plugin_index" hook="right_insert">
        <p>default right</p>
      </PluginSlot>
    </PluginRuntime>
  );

  function render(platform: 'pc' | 'h5', items = [at('right_insert')]) {
    const api = fakeApi({ '/api/v3/plugin/list': () => items });
    const result = renderWithApp(slot, { api, platform, forum: forum({ user: viewer({ isAdmin: true }) }) });
    return { ...result, api };
  }

  it('fetches the list of the platform, shows the default first and the plugin once its module loaded', async () => {
    const { api } = render('pc', [
      at('right_insert'),
      at('right_insert', 'Widget', 'plugin_index', { appid: 'mobile', platform: ['h5'] }),
    ]);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(screen.getByText('default right')).toBeTruthy();
    await screen.findByText('plugin hello');
    expect(screen.queryByText('plugin mobile')).toBeNull();
    expect(api.calls[0]?.path).toBe('/api/v3/plugin/list');
  });

  it('names the plugins whose modules are still loading on the document', async () => {
    let arrive: (exports: { Widget: () => ReactNode }) => void = () => undefined;
    const importer = (url: string) =>
      url.includes('/slow/')
        ? new Promise<{ Widget: () => ReactNode }>((resolve) => (arrive = resolve))
        : Promise.resolve({ Widget: () => <p>plugin {url.split('/')[2]}</p> });
    const items = [at('right_insert'), at('right_insert', 'Widget', 'plugin_index', { appid: 'slow' })];
    const api = fakeApi({ '/api/v3/plugin/list': () => items });
    renderWithApp(
      <PluginRuntime importer={importer}>
        <PluginSlot target="plugin_index" hook="right_insert" />
      </PluginRuntime>,
      { api, forum: forum({ user: viewer() }) },
    );
    await screen.findByText('plugin hello');
    const root = document.documentElement;
    // The attributes are set by an effect after the render that shows the plugin.
    await waitFor(() => expect(root.dataset.pluginsPending).toBe('slow'));
    expect(root.dataset.plugins).toBe('loading');
    await act(async () => arrive({ Widget: () => <p>plugin slow</p> }));
    await screen.findByText('plugin slow');
    await waitFor(() => expect(root.dataset.pluginsPending).toBeUndefined());
    expect(root.dataset.plugins).toBe('ready');
  });

  it('flags a module that fails to load: a warning, a data attribute and a marker for administrators', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render('pc', [at('right_insert', 'Widget', 'plugin_index', { appid: 'broken', pluginName: 'Broken' })]);
    await screen.findByTestId('plugin-asset-error');
    expect(screen.getByTestId('plugin-asset-error').textContent).toBe('插件加载失败：Broken');
    // Set by an effect after the render that shows the marker.
    await waitFor(() => expect(document.documentElement.dataset.pluginAssetErrors).toBe('broken'));
    expect(screen.getByText('default right')).toBeTruthy();
    expect(warn).toHaveBeenCalledWith('[plugin] broken: Failed to load script', expect.any(String), expect.any(Error));
  });
});
