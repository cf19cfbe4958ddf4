/**
 * The parts of the forum's render inputs this plugin reads, as the web runtime defines them (@luntan/plugin-sdk's
 * runtime types: PluginRenderProps, PostRenderData, PluginAction). Kept minimal, so the plugin depends on no more
 * than it uses.
 */

export interface PluginCallOptions {
  method?: 'GET' | 'POST';
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface PluginAction<Store extends object = Record<string, unknown>> {
  /** Merges into the plugin's store (shared by its components for the session); they re-render with it. */
  setStore(partial: Partial<Store>): void;
  /** Calls a route of this plugin (`/api/plugin/poll/<path>`): resolves with its Data, rejects when Code is not 0. */
  call<T = unknown>(path: string, options?: PluginCallOptions): Promise<T>;
}

export interface PluginSiteData {
  /** The page's language. */
  locale: 'zh' | 'en';
}

/** Render inputs a component cannot work without: the forum renders nothing (and warns) when one is missing. */
export type PluginRequiredProp = 'renderData' | 'threadData' | 'userInfo';
