import type { PluginComponent, PluginPlacement, PluginRenderProps } from '@luntan/plugin-sdk';
import type { PluginListItem, PluginTarget } from '@luntan/shared';

/**
 * The plugin registry as the slots read it, and the rules that need no schema. The registration itself (checking
 * each record with the shared zod schemas) is in plugin-rules.ts, loaded only once a page has plugins to register,
 * so the first page's code carries no zod.
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

/** What React can render as a component: a function (or class), or a memo/forwardRef/lazy object. */
export function isComponentLike(value: unknown): value is PluginComponent {
  if (typeof value === 'function') return true;
  return typeof value === 'object' && value !== null && '$$typeof' in value;
}

/** The spec's placeholder component value: registered, renders nothing. */
export const PADDING = 'padding';

export function slotKey(target: string, hookName: string): string {
  return `${target}:${hookName}`;
}

/** An add_page_hook path without the slashes around it. */
export function normalisePagePath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
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
