import type { Catalogue } from '../catalogue';
import type { plugins as zh } from '../zh/plugins';

/** English messages: plugins (the same keys as zh/plugins.ts). */
export const plugins: Catalogue<typeof zh> = {
  plugins: {
    assetError: 'Plugin failed to load: {{names}}',
    listSeparator: ', ',
    pageLoading: 'Loading the plugin page…',
    pageFailed: 'The plugin page failed to load. Please reload the page later.',
    admin: {
      intro:
        'Upload a plugin package (.zip or .tgz) to install it. Once enabled it works without a restart: reload a page to see it.',
      upload: 'Upload plugin',
      file: 'Plugin package',
      chooseFile: 'Choose a plugin package first (.zip or .tgz)',
      pick: 'Choose a file',
      noFile: 'No file chosen',
      installed: 'Installed {{name}} {{version}}',
      updated: 'Updated {{name}} from {{from}} to {{version}}',
      empty: 'No plugin installed yet',
      name: 'Plugin',
      version: 'Version',
      author: 'Author',
      targets: 'Placements',
      platforms: 'Platforms',
      status: 'Status',
      enabled: 'Enabled',
      disabled: 'Disabled',
      serverError: 'Server part failed: {{message}}',
      enable: 'Enable',
      disable: 'Disable',
      settings: 'Settings',
      delete: 'Delete',
      enabledToast: '{{name}} enabled',
      disabledToast: '{{name}} disabled',
      deleted: '{{name}} deleted',
      deleteTitle: 'Delete plugin',
      confirmDelete: 'Delete the plugin “{{name}}”? Its files and settings are removed too. This cannot be undone.',
      cancel: 'Cancel',
      settingsTitle: 'Settings of {{name}}',
      noSettings: 'This plugin has no settings.',
      secret: 'Secret: only the plugin’s server part can read it',
      save: 'Save settings',
      saved: 'Settings saved',
      invalidNumber: '{{label}} must be a number',
      appid: 'Plugin ID',
      appidHint:
        "The plugin's own id: in its page addresses /plugin/<ID>/… and routes /api/plugin/<ID>/…; an update is matched to the installed plugin by it",
      platform: {
        pc: 'Desktop',
        h5: 'Mobile',
        mini: 'Mini program',
      },
    },
  },
};
