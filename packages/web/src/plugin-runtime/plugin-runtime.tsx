import type { PluginAction, PluginCallError, PluginCallOptions } from '@luntan/plugin-sdk';
import { isLocale, type PluginListItem } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate } from 'react-router';
import { isSuccess, request } from '../api/dispatcher';
import { useAppContext } from '../app-context';
import { useForum } from '../hooks/use-forum';
import { usePlatform } from '../platform/platform-context';
import { pluginListQuery, pluginsOf } from './plugin-list';
import {
  importModule,
  loadPluginModule,
  loadPluginStylesheet,
  type ModuleImporter,
  type PluginLoadResult,
} from './plugin-loader';
import { EMPTY_REGISTRY, type LoadedPlugin } from './plugin-registry';
import type { registerPlugins } from './plugin-rules';
import { PluginStores } from './plugin-store';
import './plugin-runtime.css';
import {
  PluginRuntimeContext,
  type PluginLoadStatus,
  type PluginRuntimeValue,
  type SharedRenderInputs,
} from './runtime-context';

/** A warning said once per page, however often the registry is rebuilt. */
const warned = new Set<string>();
function warnOnce(message: string, ...detail: unknown[]): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(message, ...detail);
}

/** The path of a plugin's own route, without leading slashes; `..` segments are refused. */
function routePath(path: string): string | null {
  const clean = path.replace(/^\/+/, '');
  return clean.split(/[/?#]/).includes('..') ? null : clean;
}

function callError(code: number, message: string): PluginCallError {
  return Object.assign(new Error(message), { code });
}

/** `pluginAction.call`: the plugin's own server route, through the app's dispatcher (session, JSON, time-out). */
async function callPluginRoute<T>(appid: string, path: string, options: PluginCallOptions = {}): Promise<T> {
  const clean = routePath(path);
  if (clean === null) throw callError(-4001, `invalid plugin route ${path}`);
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const result = await request<T>({
    url: `/api/plugin/${encodeURIComponent(appid)}/${clean}`,
    method,
    params: options.query,
    data: method === 'POST' ? (options.body ?? {}) : undefined,
    // The plugin decides what a failure means; a background call never sends the reader elsewhere.
    handleError: false,
  });
  if (isSuccess(result)) return result.Data;
  throw callError(result.Code, result.Message);
}

/** The browser session's plugin stores (one per page load). */
let sessionStores: PluginStores | null = null;
function browserStores(): PluginStores {
  sessionStores ??= new PluginStores();
  return sessionStores;
}

/**
 * The plugin runtime of the page: the enabled plugins of the shown layout (GET /api/v3/plugin/list, fetched by the
 * root loader for the first page, so the server knows it too), their modules imported in the browser, and the
 * registry the slots render from.
 *
 * Hydration never disagrees with the server: the server renders every slot's default content, and the browser does
 * too until a plugin's module has loaded, which happens in an effect, after hydration.
 */
export function PluginRuntime({
  children,
  importer = importModule,
}: {
  children: ReactNode;
  /** How a module is imported (tests give their own). */
  importer?: ModuleImporter;
}) {
  const { api, isServer } = useAppContext();
  const platform = usePlatform();
  const { forum } = useForum();
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const listResult = useQuery(pluginListQuery(api, platform)).data;
  const list = pluginsOf(listResult);
  const [results, setResults] = useState<ReadonlyMap<string, PluginLoadResult>>(new Map());
  // The registration rules check records with the shared zod schemas: loaded with the first plugin, not the page.
  const [rules, setRules] = useState<{ registerPlugins: typeof registerPlugins } | null>(null);

  useEffect(() => {
    if (list.length === 0) return;
    let live = true;
    // The app's React and SDK for the plugins' modules (the SDK brings the shared zod schemas): a page without
    // plugins never loads them.
    const exposed = import('./plugin-globals').then(
      (module) => module.exposePluginRuntime(),
      (error: unknown) => warnOnce('[plugin] the plugin runtime could not be loaded', error),
    );
    void import('./plugin-rules').then(
      (module) => live && setRules(module),
      (error: unknown) => {
        warnOnce('[plugin] the registration rules could not be loaded', error);
        if (live) setRules({ registerPlugins: () => EMPTY_REGISTRY });
      },
    );
    for (const item of list) {
      loadPluginStylesheet(item.appid, item.styleUrl);
      void exposed
        .then(() => loadPluginModule(item, importer))
        .then((result) => {
          if (!result.ok)
            warnOnce(`[plugin] ${item.appid}: ${result.error.message}`, item.moduleUrl, result.error.cause);
          if (!live) return;
          setResults((current) => {
            if (current.get(item.moduleUrl) === result) return current;
            const next = new Map(current);
            next.set(item.moduleUrl, result);
            return next;
          });
        });
    }
    return () => {
      live = false;
    };
  }, [list, importer]);

  const registry = useMemo(() => {
    const loaded: LoadedPlugin[] = [];
    for (const item of list) {
      const result = results.get(item.moduleUrl);
      if (result?.ok) loaded.push({ item, exports: result.exports });
    }
    return rules && loaded.length > 0 ? rules.registerPlugins(loaded, platform, warnOnce) : EMPTY_REGISTRY;
  }, [list, results, platform, rules]);

  const failed = useMemo(() => list.filter((item) => results.get(item.moduleUrl)?.ok === false), [list, results]);
  const failedIds = failed.map((item) => item.appid).join(' ');
  const settled =
    listResult !== undefined &&
    (list.length === 0 || rules !== null) &&
    list.every((item) => results.has(item.moduleUrl));
  const pendingIds = list
    .filter((item) => !results.has(item.moduleUrl))
    .map((item) => item.appid)
    .join(' ');
  // <html data-plugins="loading|ready" data-plugins-pending="appid ..." data-plugin-asset-errors="appid ...">: for
  // styles, tests and support.
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.plugins = settled ? 'ready' : 'loading';
    if (pendingIds) root.dataset.pluginsPending = pendingIds;
    else delete root.dataset.pluginsPending;
    if (failedIds) root.dataset.pluginAssetErrors = failedIds;
    else delete root.dataset.pluginAssetErrors;
  }, [failedIds, pendingIds, settled]);

  const inputs = useMemo((): SharedRenderInputs | null => {
    if (!forum) return null;
    return {
      siteData: {
        site: forum.setSite,
        permissions: forum.permissions,
        abilities: forum.other,
        platform,
        locale: isLocale(i18n.language) ? i18n.language : 'zh',
      },
      userInfo: forum.user,
      isLogin: forum.user !== null,
    };
  }, [forum, platform, i18n.language]);

  const stores = isServer ? null : browserStores();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  const actions = useRef(new Map<string, PluginAction>());

  const value = useMemo((): PluginRuntimeValue => {
    const byUrl = new Map(list.map((item) => [item.appid, item.moduleUrl]));
    const status = (appid: string): PluginLoadStatus => {
      const url = byUrl.get(appid);
      const result = url === undefined ? undefined : results.get(url);
      return result === undefined ? 'loading' : result.ok ? 'ready' : 'failed';
    };
    const pluginStores = stores ?? new PluginStores(null);
    return {
      registry,
      status,
      inputs,
      stores: pluginStores,
      action: (appid) => {
        let action = actions.current.get(appid);
        if (!action) {
          action = {
            setStore: (partial) => pluginStores.set(appid, partial),
            call: (path, options) => callPluginRoute(appid, path, options),
            navigate: (to) => void navigateRef.current(to),
          };
          actions.current.set(appid, action);
        }
        return action;
      },
    };
  }, [list, results, registry, inputs, stores]);

  return (
    <PluginRuntimeContext.Provider value={value}>
      {children}
      {forum?.user?.isAdmin && failed.length > 0 ? <AssetErrorMarker failed={failed} /> : null}
    </PluginRuntimeContext.Provider>
  );
}

/** For administrators: which plugins did not load on this page (visitors only get the console warning). */
function AssetErrorMarker({ failed }: { failed: PluginListItem[] }) {
  const { t } = useTranslation();
  return (
    <Link to="/admin/plugins" className="lt-plugin-error-marker" role="status" data-testid="plugin-asset-error">
      {t('plugins.assetError', { names: failed.map((item) => item.pluginName).join(t('plugins.listSeparator')) })}
    </Link>
  );
}
