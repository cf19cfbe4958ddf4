import type { PluginHookName, PluginPlatform } from '@luntan/shared';
import type { PluginComponent } from '@luntan/plugin-sdk';
import { comparePluginVersions, pluginEntrySchema, pluginManifestSchema } from '@luntan/shared';
import type { ZodError } from 'zod';
import {
  PADDING,
  isComponentLike,
  normalisePagePath,
  slotKey,
  type LoadedPlugin,
  type PluginRegistry,
  type RegisteredPlugin,
  type Warn,
} from './plugin-registry';

export * from './plugin-registry';

/**
 * The spec's registration rules (sections 4 and 5), applied in the browser to each entry of each loaded plugin.
 * A failure is a console warning only and the entry is not registered; the page goes on.
 */

/** The record fields the spec checks (pluginName, version, author, type, appid, platform). */
const registrationSchema = pluginManifestSchema.pick({
  pluginName: true,
  version: true,
  author: true,
  type: true,
  appid: true,
  platform: true,
});

function firstProblem(error: ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
}

/**
 * Registers the entries of the loaded plugins for the current platform:
 * - a record failing the rules (name, version, author, type, appid, platform) is dropped with a warning;
 * - a plugin whose platforms do not include the current one is not registered;
 * - an entry with an unknown target, a hook its target does not have, or a component its module does not export
 *   is dropped with a warning;
 * - the same plugin (appid) registered twice for one hook (and page path) keeps the higher version.
 */
export function registerPlugins(loaded: readonly LoadedPlugin[], platform: PluginPlatform, warn: Warn): PluginRegistry {
  const kept = new Map<string, RegisteredPlugin>();
  for (const { item, exports } of loaded) {
    const name = typeof item.appid === 'string' ? item.appid : String(item.pluginName);
    const record = registrationSchema.safeParse(item);
    if (!record.success) {
      warn(`[plugin] ${name}: registration rejected (${firstProblem(record.error)})`);
      continue;
    }
    if (!record.data.platform.includes(platform)) {
      warn(`[plugin] ${name}: not registered, its platforms (${record.data.platform.join(', ')}) exclude ${platform}`);
      continue;
    }
    for (const raw of Array.isArray(item.entries) ? item.entries : []) {
      const entry = pluginEntrySchema.safeParse(raw);
      if (!entry.success) {
        warn(`[plugin] ${name}: entry rejected (${firstProblem(entry.error)})`);
        continue;
      }
      const { target, hookName, component, path } = entry.data;
      const value = Object.hasOwn(exports, component) ? exports[component] : undefined;
      if (value !== PADDING && !isComponentLike(value)) {
        warn(`[plugin] ${name}: entry rejected (${target} ${hookName}: the module exports no component ${component})`);
        continue;
      }
      const pagePath = path === undefined ? undefined : normalisePagePath(path);
      const key = `${slotKey(target, hookName)}:${record.data.appid}:${pagePath ?? ''}`;
      const existing = kept.get(key);
      if (existing && comparePluginVersions(record.data.version, existing.version) <= 0) {
        warn(`[plugin] ${name}: ${record.data.version} not registered for ${hookName}, ${existing.version} is kept`);
        continue;
      }
      if (existing) warn(`[plugin] ${name}: ${existing.version} replaced by ${record.data.version} for ${hookName}`);
      kept.set(key, {
        appid: record.data.appid,
        // The list's name, in the page's language (plugin.json may give one per language).
        pluginName: item.pluginName,
        version: record.data.version,
        target,
        hookName: hookName as PluginHookName,
        ...(pagePath !== undefined ? { path: pagePath } : {}),
        settings: item.settings ?? {},
        options: item.options ?? {},
        Component: value === PADDING ? null : (value as PluginComponent),
      });
    }
  }

  const bySlot = new Map<string, RegisteredPlugin[]>();
  for (const plugin of kept.values()) {
    const key = slotKey(plugin.target, plugin.hookName);
    bySlot.set(key, [...(bySlot.get(key) ?? []), plugin]);
  }
  return {
    components: (target, hookName) => bySlot.get(slotKey(target, hookName)) ?? [],
    page: (appid, path) =>
      bySlot
        .get(slotKey('plugin_system', 'add_page_hook'))
        ?.find((p) => p.appid === appid && p.path === normalisePagePath(path)) ?? null,
  };
}
