import type { PluginListItem } from '@luntan/shared';
import { ASSET_MESSAGES, AssetError, assetLoadTimeoutMs, loadWithTimeout } from '../routing/asset-loader';
import type { PluginModuleExports } from './plugin-registry';

/**
 * Loading a plugin's client module (and its stylesheet) in the browser. A module that fails to load, or has not
 * loaded after 3800 ms, is given up and flagged as an asset error (spec section 4); the page goes on without it.
 */
export type PluginLoadResult = { ok: true; exports: PluginModuleExports } | { ok: false; error: AssetError };

export type ModuleImporter = (url: string) => Promise<PluginModuleExports>;

/** The browser's own import(): the URL is the server's, outside the app's bundle. */
export const importModule: ModuleImporter = (url) => import(/* @vite-ignore */ url) as Promise<PluginModuleExports>;

/** One load per module URL for the page's life (the URL carries a content hash: a new version is a new URL). */
const loads = new Map<string, Promise<PluginLoadResult>>();

export function loadPluginModule(
  item: Pick<PluginListItem, 'moduleUrl'>,
  importer: ModuleImporter = importModule,
  timeoutMs: number = assetLoadTimeoutMs(),
): Promise<PluginLoadResult> {
  let pending = loads.get(item.moduleUrl);
  if (!pending) {
    pending = loadWithTimeout(() => importer(item.moduleUrl), timeoutMs).then(
      (exports): PluginLoadResult => ({ ok: true, exports }),
      (error: unknown): PluginLoadResult => ({
        ok: false,
        error: error instanceof AssetError ? error : new AssetError(ASSET_MESSAGES.script, { cause: error }),
      }),
    );
    loads.set(item.moduleUrl, pending);
  }
  return pending;
}

/** Adds the plugin's stylesheet to the head once; a failure is a warning only (the plugin still renders). */
export function loadPluginStylesheet(appid: string, url: string | null): void {
  if (!url || typeof document === 'undefined') return;
  const selector = `link[data-plugin-style="${CSS.escape(appid)}"]`;
  const existing = document.head.querySelector<HTMLLinkElement>(selector);
  if (existing?.getAttribute('href') === url) return;
  existing?.remove();
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = url;
  link.dataset.pluginStyle = appid;
  link.addEventListener('error', () => console.warn(`[plugin] ${appid}: ${ASSET_MESSAGES.stylesheet}`, url));
  document.head.append(link);
}
