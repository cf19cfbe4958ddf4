import type { Texts } from '../texts.js';
import type { plugins as zh } from '../zh/plugins.js';

/** The server's English messages: plugins (the keys of zh/plugins.ts). */
export const plugins = {
  pluginJsonBreaksRule: 'plugin.json breaks a rule ({{field}}): {{messageEn}}',
  pluginSServerModule: "The plugin's server module failed to load, so the plugin is disabled: {{reason}}",
  pluginPackage: 'Plugin package',
  choosePluginPackage: 'Choose a plugin package',
  noSuchPluginRoute: 'no such plugin route',
  pluginFailed: 'The plugin failed',
  pluginNotFound: 'plugin not found',
  installedNotLowerThan:
    '{{nameEn}} {{version}} is installed, not lower than the uploaded {{version2}}: the installed version stays',
  pluginNoSettingNamed: 'The plugin has no setting named {{key}}',
  message: '{{labelEn}} {{en}}',
  familyPluginNotEnabled: 'This plugin is not installed or not enabled on this site',
} as const satisfies Texts<typeof zh>;
