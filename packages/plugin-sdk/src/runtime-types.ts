/**
 * What the web app gives a plugin component when it renders it (spec section 3, "Plugin render inputs"): the
 * contract between the forum's plugin runtime (packages/web/src/plugin-runtime) and a plugin's client module.
 *
 * A plugin's client module is an ES module whose named exports are the components its plugin.json `entries` name.
 * It may import only `react`, `react/jsx-runtime` and `@luntan/plugin-sdk`: the page's import map points those at
 * the forum's own instances, so hooks work across the boundary and a plugin never ships its own React.
 */
import type { ComponentType, ReactNode } from 'react';
import type { Forum, Locale, PluginHookName, PluginTarget, ThreadDetail, ThreadItem, Viewer } from '@luntan/shared';

/** The site and what the viewer may do (the forum answer, GET /api/v3/forum). */
export interface PluginSiteData {
  /** Site settings: siteName, siteLogo, siteIntroduction, ... */
  site: Forum['setSite'];
  /** Every permission key the viewer holds (category-scoped ones as `category<ID>.<key>`). */
  permissions: string[];
  /** The viewer's abilities (canViewThreads, canCreateThread, ...). */
  abilities: Forum['other'];
  /** The layout being shown: pc (desktop) or h5 (mobile). */
  platform: 'pc' | 'h5';
  /** The page's language. */
  locale: Locale;
}

/** The signed-in viewer, or null for a guest. */
export type PluginUserInfo = Viewer | null;

/** A thread: a list item (thread lists) or the whole thread (thread pages). */
export type PluginThreadData = ThreadItem | ThreadDetail;

/** Options of `pluginAction.call`. */
export interface PluginCallOptions {
  /** Default GET. */
  method?: 'GET' | 'POST';
  /** Query parameters. */
  query?: Record<string, unknown>;
  /** JSON body (POST). */
  body?: unknown;
}

/**
 * What `pluginAction.call` rejects with when the plugin's route answers a failure (Code other than 0): the
 * envelope's Code and Message. -4004 means the plugin was disabled or removed meanwhile.
 */
export interface PluginCallError extends Error {
  code: number;
}

/** What a plugin component may do. */
export interface PluginAction<Store extends object = Record<string, unknown>> {
  /** Merges into the plugin's store; every component of the plugin re-renders with it. */
  setStore(partial: Partial<Store>): void;
  /**
   * Calls the plugin's own server route, `/api/plugin/<appid>/<path>`, through the forum's API client (the
   * viewer's session and CSRF protection apply). Resolves to the envelope's Data; rejects with a PluginCallError.
   */
  call<T = unknown>(path: string, options?: PluginCallOptions): Promise<T>;
  /** Client-side navigation inside the forum (`/thread/1`, `/plugin/<appid>/<path>`). */
  navigate(to: string): void;
}

/** Which plugin and which placement is being rendered. */
export interface PluginPlacement {
  appid: string;
  pluginName: string;
  version: string;
  target: PluginTarget;
  hookName: PluginHookName;
  /** add_page_hook only: the page's path under /plugin/<appid>/. */
  path?: string;
  /** The plugin's public settings (set in the back office). */
  settings: Record<string, string | number | boolean>;
  /** plugin.json `options`. */
  options: Record<string, unknown>;
}

/** The props of every plugin component. */
export interface PluginRenderProps<RenderData = unknown, Store extends object = Record<string, unknown>> {
  /** The slot's own data (see the RenderData types below); undefined for slots that have none. */
  renderData: RenderData;
  siteData: PluginSiteData;
  userInfo: PluginUserInfo;
  isLogin: boolean;
  /** The thread on thread pages and thread-list items; null elsewhere. */
  threadData: PluginThreadData | null;
  /** The plugin's own state: one object per plugin (shared by its components), kept for the browser session. */
  pluginStore: Store;
  pluginAction: PluginAction<Store>;
  plugin: PluginPlacement;
  /** The slot's default content: a `*_replace` component may wrap it rather than drop it. */
  children?: ReactNode;
}

/** The render inputs a component may declare as required (see `PluginComponent.requiredProps`). */
export type PluginRequiredProp = 'renderData' | 'threadData' | 'userInfo';

/**
 * A plugin component. `requiredProps` lists render inputs it cannot work without: when one of them is null or
 * undefined where it is placed, the forum renders nothing in its place and warns `插件必须传入参数` in the console
 * (e.g. `requiredProps = ['threadData']` for a component meant for thread pages, `['userInfo']` for members only).
 */
export type PluginComponent<RenderData = unknown, Store extends object = Record<string, unknown>> = ComponentType<
  PluginRenderProps<RenderData, Store>
> & { requiredProps?: readonly PluginRequiredProp[] };

/** What `onThreadCreated` calls: the new thread's id, and whether it was saved as a draft. */
export type ThreadCreatedCallback = (
  threadId: number,
  thread: { threadId: number; isDraft: boolean },
) => void | Promise<void>;

/** renderData of plugin_post hooks (post_extension_entry_hook in the editor's toolbar, _content_hook below it). */
export interface PostRenderData {
  /** The thread being edited, or 0 for a new one. */
  threadId: number;
  title: string;
  categoryId: number;
  /** The Markdown text in the editor. */
  content: string;
  /** Replaces the whole text (stable across renders, like `insert`). */
  setContent(text: string): void;
  /** Inserts text at the cursor (at the end when the editor has no cursor), as a paragraph of its own. */
  insert(text: string): void;
  /**
   * Runs `callback` with the new thread's id once a new thread has been created (published or saved as a draft),
   * before the editor leaves for it: the place to attach the plugin's own data through `pluginAction.call` (the
   * forum's thread.create takes no plugin data). The editor waits for the callbacks (up to 5 s); one that throws is
   * logged and does not stop the others. Answers a function that removes the callback (call it from an effect's
   * cleanup). The function itself stays the same across renders.
   */
  onThreadCreated(callback: ThreadCreatedCallback): () => void;
}

/** renderData of add_page_hook: the page `/plugin/<appid>/<path>`. */
export interface PluginPageRenderData {
  appid: string;
  path: string;
  /** The trigger name, `pluginName@path`. */
  trigger: string;
  /** The address's query parameters. */
  query: Record<string, string>;
}
