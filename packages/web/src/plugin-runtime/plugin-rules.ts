import type { PluginComponent, PluginPlacement, PluginRenderProps } from '@luntan/plugin-sdk';
import {
  comparePluginVersions,
  pluginEntrySchema,
  pluginManifestSchema,
  type PluginHookName,
  type PluginListItem,
  type PluginPlatform,
  type PluginTarget,
} from '@luntan/shared';
import type { ZodError } from 'zod';

/**
 * The spec's registration rules (sections 4 and 5), applied in the browser to each entry of each loaded plugin.
 * A failure is a console warning only and the entry is not registered; the page goes on.
 */

/** One registered placement: a component of a loaded plugin, for one hook slot. */
export interface RegisteredPlugin extends PluginPlacement {
  /** null: the entry is the spec's 'padding' placeholder (registered, renders nothing). */
  Component: PluginComponent | null;
}

export interface PluginRegistry {
  /** The components of a slot, in the order of the plugin list. */
  components(target: PluginTarget, hookName: string): readonly RegisteredPlugin[];
  /** The add_page_hook component of `/plugin/<appid>/<path>`. */
  page(appid: string, path: string): RegisteredPlugin | null;
}

export const EMPTY_REGISTRY: PluginRegistry = { components: () => [], page: () => null };

/** A plugin's client module, once imported: its named exports. */
export type PluginModuleExports = Record<string, unknown>;

export interface LoadedPlugin {
  item: PluginListItem;
  exports: PluginModuleExports;
}

export type Warn = (message: string, ...detail: unknown[]) => void;

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

/** What React can render as a component: a function (or class), or a memo/forwardRef/lazy object. */
export function isComponentLike(value: unknown): value is PluginComponent {
  if (typeof value === 'function') return true;
  return typeof value === 'object' && value !== null && '$$typeof' in value;
}

/** The spec's placeholder component value: registered, renders nothing. */
export const PADDING = 'padding';

function slotKey(target: string, hookName: string): string {
  return `${target}:${hookName}`;
}

/** An add_page_hook path without the slashes around it. */
export function normalisePagePath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
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
        pluginName: record.data.pluginName,
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

/** The list entry that declares the page `/plugin/<appid>/<path>` (known before its module loads). */
export function findPluginPage(
  items: readonly PluginListItem[],
  appid: string,
  path: string,
): { item: PluginListItem; path: string } | null {
  const wanted = normalisePagePath(path);
  for (const item of items) {
    if (item.appid !== appid) continue;
    const entry = item.entries.find(
      (e) => e.hookName === 'add_page_hook' && e.path !== undefined && normalisePagePath(e.path) === wanted,
    );
    if (entry) return { item, path: wanted };
  }
  return null;
}

/** The spec's trigger name of a plugin page. */
export function pluginTrigger(pluginName: string, path: string): string {
  return `${pluginName}@${path}`;
}

/**
 * The required render inputs (the component's `requiredProps`) that are missing where it is placed. A component
 * with missing inputs renders nothing (and the slot warns 插件必须传入参数).
 */
export function missingRequiredProps(Component: unknown, props: Partial<PluginRenderProps>): string[] {
  const required = (Component as { requiredProps?: unknown } | null)?.requiredProps;
  if (!Array.isArray(required)) return [];
  return required.filter(
    (name): name is string => typeof name === 'string' && (props[name as keyof PluginRenderProps] ?? null) === null,
  );
}

/** The spec's warning (section 8): the plugin must be given parameters. */
export const MISSING_PARAMETERS_WARNING = '插件必须传入参数';
