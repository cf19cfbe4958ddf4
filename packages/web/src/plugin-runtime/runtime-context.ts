import type { PluginAction, PluginSiteData, PluginUserInfo } from '@luntan/plugin-sdk';
import { createContext, useContext } from 'react';
import { EMPTY_REGISTRY, type PluginRegistry } from './plugin-registry';
import { PluginStores } from './plugin-store';

/** Where a plugin's client module stands in this page. */
export type PluginLoadStatus = 'loading' | 'ready' | 'failed';

/** The render inputs every plugin component shares (the slot adds renderData and threadData). */
export interface SharedRenderInputs {
  siteData: PluginSiteData;
  userInfo: PluginUserInfo;
  isLogin: boolean;
}

/** What the plugin slots read: the registered components and what to render them with. */
export interface PluginRuntimeValue {
  registry: PluginRegistry;
  status(appid: string): PluginLoadStatus;
  /** null until the site information has arrived (then nothing from plugins renders). */
  inputs: SharedRenderInputs | null;
  stores: PluginStores;
  action(appid: string): PluginAction;
}

const noAction: PluginAction = {
  setStore: () => undefined,
  call: () => Promise.reject(new Error('plugin runtime not started')),
  navigate: () => undefined,
};

/** Outside the runtime (the server render, tests): no plugins, every slot shows its default content. */
export const PluginRuntimeContext = createContext<PluginRuntimeValue>({
  registry: EMPTY_REGISTRY,
  status: () => 'loading',
  inputs: null,
  stores: new PluginStores(null),
  action: () => noAction,
});

export function usePluginRuntime(): PluginRuntimeValue {
  return useContext(PluginRuntimeContext);
}
