/**
 * The plugin SDK: the only module a Luntan plugin imports. This first version holds the registration contract
 * from the spec (section 3 and 5); the plugin issue adds the runtime (slots, hooks, server extenders).
 */
import { PLUGIN_TARGETS, PLUGIN_VERSION_PATTERN, type PLUGIN_PLATFORMS, type PluginTarget } from '@luntan/shared';

/** The placement targets seen in the spec. */
export { PLUGIN_TARGETS, type PluginTarget };

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

/** Compares versions by joining their digits (the spec's rule): the higher one is kept for a hook. */
export function compareVersions(a: string, b: string): number {
  return Number(a.split('.').join('')) - Number(b.split('.').join(''));
}

/** What a plugin component receives when the forum renders it (owned by the web runtime). */
export type * from './runtime-types.js';
