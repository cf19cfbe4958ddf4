/**
 * Each plugin's store (`pluginStore`): one object per plugin, shared by its components, changed with
 * `pluginAction.setStore(partial)`. Kept for the browser session (sessionStorage, when its content is JSON), so a
 * reload in the same tab finds it again.
 */
type Listener = () => void;
type Store = Record<string, unknown>;

const SESSION_PREFIX = 'luntan.plugin-store.';
const EMPTY: Store = Object.freeze({}) as Store;

export class PluginStores {
  private readonly stores = new Map<string, Store>();
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly storage: Storage | null = sessionStorageOrNull()) {}

  get(appid: string): Store {
    let store = this.stores.get(appid);
    if (!store) {
      store = this.read(appid);
      this.stores.set(appid, store);
    }
    return store;
  }

  set(appid: string, partial: Store): void {
    const next = { ...this.get(appid), ...partial };
    this.stores.set(appid, next);
    try {
      this.storage?.setItem(SESSION_PREFIX + appid, JSON.stringify(next));
    } catch {
      // Not JSON (a function, a cycle) or storage full: kept in memory for the page's life only.
    }
    for (const listener of this.listeners.get(appid) ?? []) listener();
  }

  subscribe(appid: string, listener: Listener): () => void {
    const set = this.listeners.get(appid) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(appid, set);
    return () => set.delete(listener);
  }

  private read(appid: string): Store {
    try {
      const raw = this.storage?.getItem(SESSION_PREFIX + appid);
      const value: unknown = raw ? JSON.parse(raw) : null;
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Store) : EMPTY;
    } catch {
      return EMPTY;
    }
  }
}

function sessionStorageOrNull(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
