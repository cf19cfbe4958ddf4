import type { PluginListItem } from '@luntan/shared';
import type { ApiClient } from '../api/client';
import { isSuccess, type ApiResult } from '../api/dispatcher';
import { platformFromUserAgent, type Platform } from '../platform/platform';
import { endpoints } from '../api/endpoints';

/** GET /api/v3/plugin/list for one platform: the enabled plugins of the desktop (pc) or mobile (h5) layout. */
export const pluginListKey = (platform: Platform) => ['plugins', platform] as const;

export const pluginListQuery = (api: ApiClient, platform: Platform) => ({
  queryKey: pluginListKey(platform),
  // A forum without the plugin calls (or a failing one) simply has no plugins: no error page, no redirect.
  queryFn: (): Promise<ApiResult<PluginListItem[]>> =>
    api.get<PluginListItem[]>(endpoints.plugins.list, { platform }, { handleError: false }),
});

const NONE: PluginListItem[] = [];

/** The list when it has been fetched successfully, else none. */
export function pluginsOf(result: ApiResult<PluginListItem[]> | undefined): PluginListItem[] {
  return result && isSuccess(result) && Array.isArray(result.Data) ? result.Data : NONE;
}

/**
 * The layout a loader renders for: on the server the request's user agent (as the renderer decides it), in the
 * browser the one the page shows now (the platform provider keeps it on <html data-platform>).
 */
export function loaderPlatform(request: Request, isServer: boolean): Platform {
  if (!isServer && typeof document !== 'undefined') {
    const shown = document.documentElement.dataset.platform;
    if (shown === 'h5' || shown === 'pc') return shown;
  }
  return platformFromUserAgent(request.headers.get('user-agent') ?? undefined);
}
