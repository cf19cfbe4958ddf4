import type { PluginPageRenderData } from '@luntan/plugin-sdk';
import { useTranslation } from '../i18n/use-translation';
import { data, useLoaderData, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import type { AppContext } from '../app-context';
import { PluginErrorBoundary, PluginHost } from '../components/plugin/plugin-slot';
import { Icon, Spinner } from '../components/ui';
import { loaderPlatform, pluginListQuery, pluginsOf } from '../plugin-runtime/plugin-list';
import { findPluginPage, pluginTrigger } from '../plugin-runtime/plugin-registry';
import { usePluginRuntime } from '../plugin-runtime/runtime-context';
import type { RouteHandle } from '../routing/handle';

/** What the page knows before the plugin's module loads (from the plugin list). */
export interface PluginPageData {
  appid: string;
  path: string;
  pluginName: string;
  /** The spec's trigger name, `pluginName@path`. */
  trigger: string;
}

/**
 * `/plugin/<appid>/<path>`: a page that a plugin adds (plugin_system add_page_hook). Not found unless an enabled
 * plugin of this layout declares the path; the server renders the layout with a loading placeholder, the browser
 * renders the plugin's component once its module has loaded.
 */
export async function loader(ctx: AppContext, { request, params }: LoaderFunctionArgs): Promise<PluginPageData> {
  const platform = loaderPlatform(request, ctx.isServer);
  const plugins = pluginsOf(await ctx.queryClient.ensureQueryData(pluginListQuery(ctx.api, platform)));
  const found = findPluginPage(plugins, params.appid ?? '', params['*'] ?? '');
  if (!found) throw data(null, { status: 404 });
  return {
    appid: found.item.appid,
    path: found.path,
    pluginName: found.item.pluginName,
    trigger: pluginTrigger(found.item.pluginName, found.path),
  };
}

function isPageData(value: unknown): value is PluginPageData {
  return typeof value === 'object' && value !== null && typeof (value as PluginPageData).trigger === 'string';
}

export const handle: RouteHandle = {
  head: (loaded) => (isPageData(loaded) ? { title: loaded.trigger } : null),
};

export function Component() {
  const { t } = useTranslation();
  const page = useLoaderData<PluginPageData>();
  const [search] = useSearchParams();
  const runtime = usePluginRuntime();
  const registered = runtime.registry.page(page.appid, page.path);
  const status = runtime.status(page.appid);
  const renderData: PluginPageRenderData = {
    appid: page.appid,
    path: page.path,
    trigger: page.trigger,
    query: Object.fromEntries(search.entries()),
  };
  const failed = (
    <div className="lt-card lt-empty" role="alert">
      <Icon name="warning" /> {t('plugins.pageFailed')}
    </div>
  );

  return (
    <section className="lt-plugin-page" data-plugin-trigger={page.trigger} aria-label={page.pluginName}>
      {registered ? (
        <PluginErrorBoundary key={page.trigger} pluginName={page.pluginName} fallback={failed}>
          <PluginHost plugin={registered} renderData={renderData} />
        </PluginErrorBoundary>
      ) : status === 'loading' ? (
        <div className="lt-card lt-empty" data-testid="plugin-page-loading">
          <Spinner label={t('plugins.pageLoading')} showLabel />
        </div>
      ) : (
        failed
      )}
    </section>
  );
}
