import type { PluginListItem } from '@luntan/shared';

/** A plugin list item as GET /api/v3/plugin/list answers it (for the runtime's tests). */
export function pluginItem(overrides: Partial<PluginListItem> = {}): PluginListItem {
  const appid = overrides.appid ?? 'hello';
  return {
    appid,
    pluginName: 'Hello',
    pluginNames: { zh: 'Hello', en: 'Hello' },
    version: '1.0.0',
    type: 'widget',
    author: { name: 'Ann', email: 'ann@example.com' },
    platform: ['pc', 'h5'],
    entries: [{ target: 'plugin_index', hookName: 'right_insert', component: 'Hello' }],
    moduleUrl: `/plugin-assets/${appid}/${Math.random().toString(36).slice(2)}/index.js`,
    styleUrl: null,
    settings: {},
    options: {},
    ...overrides,
  };
}
