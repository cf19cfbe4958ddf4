/**
 * Test doubles of the forum for this plugin's own tests: a router that records the routes, an in-memory store (with
 * or without `increment`) and a caller that answers like the forum (Data, or a PluginError for a non-zero Code).
 */
import type {
  PluginJsonValue,
  PluginRequest,
  PluginRouteHandler,
  PluginServerContext,
  PluginServerModule,
  PluginStore,
  PluginViewer,
} from '@luntan/plugin-sdk/server';

export function memoryStore({ increment = true } = {}): PluginStore & { data: Map<string, PluginJsonValue> } {
  const data = new Map<string, PluginJsonValue>();
  const copy = (value: PluginJsonValue): PluginJsonValue => JSON.parse(JSON.stringify(value)) as PluginJsonValue;
  const store: PluginStore & { data: Map<string, PluginJsonValue> } = {
    data,
    get: async (key) => (data.has(key) ? copy(data.get(key)!) : null),
    set: async (key, value) => {
      data.set(key, copy(value));
    },
    delete: async (key) => {
      data.delete(key);
    },
    list: async (prefix = '') =>
      [...data].filter(([key]) => key.startsWith(prefix)).map(([key, value]) => ({ key, value: copy(value) })),
  };
  if (increment) {
    store.increment = async (key, by) => {
      const now = (typeof data.get(key) === 'number' ? (data.get(key) as number) : 0) + by;
      data.set(key, now);
      return now;
    };
  }
  return store;
}

export function viewer(id: number, extra: Partial<PluginViewer> = {}): PluginViewer {
  return { id, username: `member${id}`, nickname: `Member ${id}`, isAdmin: false, permissions: [], ...extra };
}

/** Registers the module against a fake router and returns a way to call its routes. */
export async function mountServer(module: PluginServerModule, store: PluginStore = memoryStore()) {
  const routes = new Map<string, PluginRouteHandler>();
  const logged: string[] = [];
  const ctx: PluginServerContext = {
    appid: 'poll',
    settings: async () => ({}),
    store,
    log: {
      info: (message) => logged.push(`info ${message}`),
      warn: (message) => logged.push(`warn ${message}`),
      error: (message) => logged.push(`error ${message}`),
    },
  };
  await module(
    {
      get: (path, handler) => routes.set(`GET ${path}`, handler),
      post: (path, handler) => routes.set(`POST ${path}`, handler),
    },
    ctx,
  );
  return {
    routes,
    logged,
    call: async (route: string, request: Partial<PluginRequest> = {}): Promise<unknown> => {
      const handler = routes.get(route);
      if (!handler) throw new Error(`no route ${route}`);
      return handler({ query: {}, body: undefined, viewer: null, params: {}, ...request });
    },
  };
}
