import { describe, expect, it, vi } from 'vitest';
import { pluginItem } from '../test/plugin-fixtures';
import { findPluginPage, missingRequiredProps, pluginTrigger, registerPlugins } from './plugin-rules';

const Hello = () => null;

describe('plugin registration rules', () => {
  it('registers each entry whose component the module exports, in the slot it names', () => {
    const warn = vi.fn();
    const registry = registerPlugins([{ item: pluginItem(), exports: { Hello } }], 'pc', warn);
    const [registered] = registry.components('plugin_index', 'right_insert');
    expect(registered).toMatchObject({ appid: 'hello', pluginName: 'Hello', version: '1.0.0', Component: Hello });
    expect(registry.components('plugin_index', 'left_insert')).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('drops a registration failing validation with a console warning only', () => {
    const warn = vi.fn();
    const registry = registerPlugins(
      [
        { item: pluginItem({ appid: 'badversion', version: '1.0' }), exports: { Hello } },
        {
          item: pluginItem({
            appid: 'badhook',
            entries: [{ target: 'plugin_index', hookName: 'nowhere_hook', component: 'Hello' }],
          }),
          exports: { Hello },
        },
        {
          item: pluginItem({
            appid: 'badtarget',
            entries: [{ target: 'plugin_moon' as 'plugin_index', hookName: 'right_insert', component: 'Hello' }],
          }),
          exports: { Hello },
        },
        { item: pluginItem({ appid: 'nocomponent' }), exports: { Other: Hello } },
        { item: pluginItem({ appid: 'notcomponent' }), exports: { Hello: 42 } },
      ],
      'pc',
      warn,
    );
    expect(registry.components('plugin_index', 'right_insert')).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(5);
    expect(warn.mock.calls.map(([message]) => String(message).split(':')[0])).toEqual([
      '[plugin] badversion',
      '[plugin] badhook',
      '[plugin] badtarget',
      '[plugin] nocomponent',
      '[plugin] notcomponent',
    ]);
  });

  it('keeps the higher version when one plugin registers twice for one hook', () => {
    const Old = () => null;
    const New = () => null;
    const warn = vi.fn();
    const registry = registerPlugins(
      [
        { item: pluginItem({ version: '1.2.0' }), exports: { Hello: New } },
        { item: pluginItem({ version: '1.1.9' }), exports: { Hello: Old } },
        { item: pluginItem({ appid: 'other' }), exports: { Hello } },
      ],
      'pc',
      warn,
    );
    const slot = registry.components('plugin_index', 'right_insert');
    expect(slot.map((p) => [p.appid, p.version])).toEqual([
      ['hello', '1.2.0'],
      ['other', '1.0.0'],
    ]);
    expect(slot[0]!.Component).toBe(New);

    // The other order: the later, higher version replaces the earlier one in its place.
    const again = registerPlugins(
      [
        { item: pluginItem({ version: '1.1.9' }), exports: { Hello: Old } },
        { item: pluginItem({ version: '1.2.0' }), exports: { Hello: New } },
      ],
      'pc',
      warn,
    );
    expect(again.components('plugin_index', 'right_insert').map((p) => p.Component)).toEqual([New]);
  });

  it('does not register a plugin whose platforms exclude the current one', () => {
    const warn = vi.fn();
    const loaded = [{ item: pluginItem({ appid: 'mobileonly', platform: ['h5'] }), exports: { Hello } }];
    expect(registerPlugins(loaded, 'pc', warn).components('plugin_index', 'right_insert')).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('exclude pc'));
    expect(registerPlugins(loaded, 'h5', warn).components('plugin_index', 'right_insert')).toHaveLength(1);
  });

  it("accepts the spec's 'padding' placeholder as a component that renders nothing", () => {
    const registry = registerPlugins([{ item: pluginItem(), exports: { Hello: 'padding' } }], 'pc', vi.fn());
    expect(registry.components('plugin_index', 'right_insert')[0]?.Component).toBeNull();
  });

  it('finds add_page_hook pages by appid and path, with the trigger name pluginName@path', () => {
    const item = pluginItem({
      appid: 'faq',
      pluginName: 'FAQ',
      entries: [{ target: 'plugin_system', hookName: 'add_page_hook', component: 'Page', path: 'help/list' }],
    });
    const registry = registerPlugins([{ item, exports: { Page: Hello } }], 'pc', vi.fn());
    expect(registry.page('faq', '/help/list/')?.Component).toBe(Hello);
    expect(registry.page('faq', 'help')).toBeNull();
    expect(findPluginPage([item], 'faq', 'help/list')).toEqual({ item, path: 'help/list' });
    expect(findPluginPage([item], 'faq', 'other')).toBeNull();
    expect(findPluginPage([item], 'nope', 'help/list')).toBeNull();
    expect(pluginTrigger('FAQ', 'help/list')).toBe('FAQ@help/list');
  });

  it('names the required inputs a component lacks', () => {
    const NeedsThread = Object.assign(() => null, { requiredProps: ['threadData', 'userInfo'] as const });
    expect(missingRequiredProps(NeedsThread, { threadData: null, userInfo: null })).toEqual(['threadData', 'userInfo']);
    expect(missingRequiredProps(Hello, { threadData: null })).toEqual([]);
  });
});
