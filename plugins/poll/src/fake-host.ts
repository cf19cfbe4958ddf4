/**
 * Test doubles of the forum for this plugin's own tests: a router that records the routes, an in-memory store, and a
 * way to call a route as the forum would.
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

/** The forum's store as the plugin sees it: get answers undefined for a missing key; add and increment are atomic. */
export function memoryStore(): PluginStore & { data: Map<string, PluginJsonValue> } {
  const data = new Map<string, PluginJsonValue>();
  const copy = (value: PluginJsonValue): PluginJsonValue => JSON.parse(JSON.stringify(value)) as PluginJsonValue;
  return {
    data,
    get: async (key) => (data.has(key) ? copy(data.get(key)!) : undefined),
    set: async (key, value) => {
      data.set(key, copy(value));
    },
    add: async (key, value) => {
      if (data.has(key)) return false;
      data.set(key, copy(value));
      return true;
    },
    delete: async (key) => {
      data.delete(key);
    },
    list: async (prefix = '') =>
      [...data]
        .filter(([key]) => key.startsWith(prefix))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, value]) => ({ key, value: copy(value) })),
    increment: async (key, by = 1) => {
      const current = data.get(key);
      const next = (typeof current === 'number' ? current : 0) + by;
      data.set(key, next);
      return next;
    },
  };
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
    // The poll hears no events: a handler it registered would be a mistake the test should see.
    events: {
      on: (names) => {
        throw new Error(`the poll does not hear events (asked for ${String(names)})`);
      },
    },
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
      const [method, path] = route.split(' ') as ['GET' | 'POST', string];
      return handler({ method, path, query: {}, body: null, viewer: null, params: {}, ...request });
    },
  };
}
