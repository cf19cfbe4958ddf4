import type { PluginRenderProps, PluginThreadData } from '@luntan/plugin-sdk';
import { PLUGIN_HOOKS, type PluginTarget } from '@luntan/shared';
import { Component, useSyncExternalStore, type ErrorInfo, type ReactNode } from 'react';
import {
  MISSING_PARAMETERS_WARNING,
  missingRequiredProps,
  type RegisteredPlugin,
} from '../../plugin-runtime/plugin-registry';
import { usePluginRuntime } from '../../plugin-runtime/runtime-context';

/**
 * Named places where plugins may put components (spec section 2, "Plugin placement areas and hook slots"). The
 * plugin runtime (src/plugin-runtime) fills the registry once a plugin's module has loaded in the browser; until
 * then, and always on the server, every slot renders its default content. A `*_replace` hook replaces the
 * default; `*_insert_*`, `left_insert`, `right_insert` and the extension hooks add to it.
 */
export type { PluginTarget };

/** The hooks the spec lists, per target (the shared contract). */
export { PLUGIN_HOOKS };

export type PluginHook<T extends PluginTarget> = (typeof PLUGIN_HOOKS)[T][number];

/** A plugin that throws is caught and logged; the slot shows its default content instead (or nothing). */
export class PluginErrorBoundary extends Component<
  { pluginName: string; fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn(`[plugin] ${this.props.pluginName} failed to render`, error, info.componentStack);
  }
  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

const warnedMissing = new Set<string>();

/** One plugin component with its render inputs; nothing when a required input is missing. */
export function PluginHost({
  plugin,
  renderData,
  threadData,
  children,
}: {
  plugin: RegisteredPlugin;
  renderData?: unknown;
  threadData?: PluginThreadData | null;
  children?: ReactNode;
}) {
  const runtime = usePluginRuntime();
  const { stores } = runtime;
  const store = useSyncExternalStore(
    (listener) => stores.subscribe(plugin.appid, listener),
    () => stores.get(plugin.appid),
    () => stores.get(plugin.appid),
  );
  const { Component: Plugin, ...placement } = plugin;
  if (!Plugin || !runtime.inputs) return null;
  const props: PluginRenderProps = {
    ...runtime.inputs,
    renderData,
    threadData: threadData ?? null,
    pluginStore: store,
    pluginAction: runtime.action(plugin.appid),
    plugin: placement,
    children,
  };
  const missing = missingRequiredProps(Plugin, props);
  if (missing.length > 0) {
    const key = `${plugin.appid}:${plugin.hookName}:${missing.join(',')}`;
    if (!warnedMissing.has(key)) {
      warnedMissing.add(key);
      console.warn(MISSING_PARAMETERS_WARNING, `${plugin.pluginName} (${plugin.hookName}): ${missing.join(', ')}`);
    }
    return null;
  }
  return <Plugin {...props} />;
}

export interface PluginSlotProps<T extends PluginTarget> {
  target: T;
  hook: PluginHook<T>;
  /** Default content. */
  children?: ReactNode;
  /** The slot's own data, given to its components as `renderData`. */
  renderData?: unknown;
  /** The thread of a thread page or a thread-list item, given as `threadData`. */
  threadData?: PluginThreadData | null;
}

export function PluginSlot<T extends PluginTarget>({
  target,
  hook,
  children,
  renderData,
  threadData,
}: PluginSlotProps<T>) {
  const { registry } = usePluginRuntime();
  const plugins = registry.components(target, hook);
  const replaces = hook.endsWith('_replace');
  const fallback = replaces ? children : null;
  const rendered = plugins.map((plugin) => (
    <PluginErrorBoundary key={plugin.appid} pluginName={plugin.pluginName} fallback={fallback}>
      <div className="lt-plugin" data-plugin={plugin.appid}>
        <PluginHost plugin={plugin} renderData={renderData} threadData={threadData}>
          {children}
        </PluginHost>
      </div>
    </PluginErrorBoundary>
  ));
  return (
    <div className="lt-plugin-slot" data-plugin-slot={`${target}:${hook}`}>
      {plugins.length === 0 ? (
        children
      ) : replaces ? (
        rendered
      ) : (
        <>
          {children}
          {rendered}
        </>
      )}
    </div>
  );
}
