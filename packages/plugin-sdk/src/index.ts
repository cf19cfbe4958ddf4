/**
 * The plugin SDK: the only module a Luntan plugin imports (docs/plugins.md). It holds the package contract
 * (plugin.json's types and rules, re-exported from @luntan/shared so the forum and plugins read one source) and the
 * server half's types. In the browser the forum's import map provides this module to plugins' client code.
 */
import {
  comparePluginVersions,
  PLUGIN_TARGETS,
  PLUGIN_VERSION_PATTERN,
  type PLUGIN_PLATFORMS,
  type PluginTarget,
} from '@luntan/shared';

/** The placement targets seen in the spec. */
export { PLUGIN_TARGETS, type PluginTarget };

/** plugin.json: its schema, its types, the hook slots of each target and the version rule. */
export {
  Code,
  comparePluginVersions,
  PLUGIN_APPID_PATTERN,
  PLUGIN_HOOKS,
  PLUGIN_PLATFORMS,
  PLUGIN_VERSION_PATTERN,
  pluginEntrySchema,
  pluginManifestSchema,
  pluginSettingFieldSchema,
  pluginText,
  pluginTexts,
  type PluginEntry,
  type PluginHookName,
  type PluginListItem,
  type PluginManifest,
  type PluginSettingField,
  type PluginText,
} from '@luntan/shared';

export * from './server.js';

export const SDK_VERSION = '0.1.0';

export type PluginPlatform = (typeof PLUGIN_PLATFORMS)[number];

export interface PluginRegistration<Component = unknown> {
  pluginName: string;
  /** Three dot-separated numbers of 1 to 3 digits. */
  version: string;
  target: PluginTarget | PluginTarget[];
  hookName: string;
  component: Component | 'padding';
  author: { name: string; email: string };
  type: string | number;
  appid: string;
  platform: PluginPlatform[];
  path?: string;
  options?: Record<string, unknown>;
}

export function isValidPluginVersion(version: string): boolean {
  return PLUGIN_VERSION_PATTERN.test(version);
}

/** Compares versions by joining their digits (the spec's rule): the higher one is kept. Same as comparePluginVersions. */
export function compareVersions(a: string, b: string): number {
  return comparePluginVersions(a, b);
}

/** What a plugin component receives when the forum renders it (owned by the web runtime). */
export type * from './runtime-types.js';
