import { PLUGIN_HOOKS, PLUGIN_TARGETS, type PluginTarget } from '@luntan/shared';
import { Component, createContext, useContext, type ComponentType, type ErrorInfo, type ReactNode } from 'react';

/**
 * Named places where plugins may put components (spec section 2, "Plugin placement areas and hook slots").
 * Until the plugin issue fills the registry, every slot renders its default content. A `*_replace` hook replaces
 * the default; `*_insert_*`, `left_insert` and `right_insert` add to it.
 */
export { PLUGIN_TARGETS, type PluginTarget };

/** The hooks the spec lists, per target (the shared contract). */
export { PLUGIN_HOOKS };

export type PluginHook<T extends PluginTarget> = (typeof PLUGIN_HOOKS)[T][number];

export interface SlotComponentProps {
  /** The slot's default content, for a plugin that wraps rather than replaces it. */
  children?: ReactNode;
  renderData?: unknown;
}

export interface PluginRegistry {
  components(
    target: PluginTarget,
    hookName: string,
  ): ReadonlyArray<{ pluginName: string; Component: ComponentType<SlotComponentProps> }>;
}

const emptyRegistry: PluginRegistry = { components: () => [] };
export const PluginRegistryContext = createContext<PluginRegistry>(emptyRegistry);

/** A plugin that throws is caught and logged; the slot shows its default content instead. */
class PluginErrorBoundary extends Component<
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

export interface PluginSlotProps<T extends PluginTarget> {
  target: T;
  hook: PluginHook<T>;
  /** Default content. */
  children?: ReactNode;
  renderData?: unknown;
}

export function PluginSlot<T extends PluginTarget>({ target, hook, children, renderData }: PluginSlotProps<T>) {
  const registry = useContext(PluginRegistryContext);
  const plugins = registry.components(target, hook);
  const replaces = hook.endsWith('_replace');
  const fallback = replaces ? children : null;
  const rendered = plugins.map(({ pluginName, Component: Plugin }) => (
    <PluginErrorBoundary key={pluginName} pluginName={pluginName} fallback={fallback}>
      <Plugin renderData={renderData}>{children}</Plugin>
    </PluginErrorBoundary>
  ));
  return (
    <div className="lt-plugin-slot" data-plugin-slot={`${target}:${hook}`}>
      {plugins.length === 0 ? children : replaces ? rendered : [children, ...rendered]}
    </div>
  );
}
