import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import type { ViewerContext } from '../../access/viewer.js';
import type {
  PluginEvent,
  PluginJsonValue,
  PluginRouteHandler,
  PluginServerContext,
  PluginStore,
  PluginViewer,
} from '@luntan/plugin-sdk/server';
import { isDomainEventName, type DomainEventName } from '@luntan/shared';
import { findPlugin, parseManifest, settingsOf } from './plugins.service.js';
import { readPluginFiles } from './plugins.repository.js';
import {
  deleteStoreValue,
  incrementStoreValue,
  insertStoreValue,
  listStoreValues,
  readStoreValue,
  upsertStoreValue,
} from './plugin-store.repository.js';

/*
 * Plugins' server parts, run in this process. A plugin's server module is written into a folder named by its content
 * hash (so an update is a new module, never a stale cached one) and imported; its default export registers routes on
 * a small router. Each request to /api/plugin/<appid>/... reads the plugin's row first (one primary-key read): a
 * disabled or removed plugin answers -4004 at once in every process, and a process that loaded an older version
 * loads the current one. A module that throws while loading is not run: the caller disables the plugin and says why.
 *
 * Plugins are code the administrator chose to install, run with the forum's rights (as in Discourse, NodeBB and
 * Flarum); the store and the router are what they are given, not a sandbox.
 */

/*
 * The contract with plugins' server modules (the router, the request, the store, events) is the SDK's:
 * @luntan/plugin-sdk/server, one declaration for the forum and for plugins.
 */
export type { PluginViewer } from '@luntan/plugin-sdk/server';
type PluginHandler = PluginRouteHandler;

interface Route {
  method: 'GET' | 'POST';
  segments: string[];
  handler: PluginHandler;
}

type EventHandler = (event: PluginEvent) => void | Promise<void>;

interface Loaded {
  hash: string;
  routes: Route[];
  /** What the module registered with ctx.events.on, by event name. */
  handlers: Map<DomainEventName, EventHandler[]>;
}

/** How long a server module may take to load and register its routes. */
const LOAD_TIMEOUT_MS = 5000;
const KEY_MAX = 255;
const VALUE_MAX_BYTES = 64 * 1024;

const split = (p: string) => p.split('/').filter((s) => s !== '');

function matchRoute(
  routes: Route[],
  method: string,
  pathName: string,
): { route: Route; params: Record<string, string> } | null {
  const parts = split(pathName);
  for (const route of routes) {
    if (route.method !== method || route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = route.segments.every((seg, i) => {
      if (seg.startsWith(':')) {
        params[seg.slice(1)] = decodeURIComponent(parts[i]!);
        return true;
      }
      return seg === parts[i];
    });
    if (ok) return { route, params };
  }
  return null;
}

export function pluginStore(db: Kysely<DB>, appid: string): PluginStore {
  const checkKey = (key: string) => {
    if (typeof key !== 'string' || key.length === 0 || key.length > KEY_MAX) {
      throw new Error(`a plugin store key must be 1 to ${KEY_MAX} characters`);
    }
  };
  const encode = (value: unknown) => {
    const text = JSON.stringify(value ?? null);
    if (Buffer.byteLength(text) > VALUE_MAX_BYTES)
      throw new Error('a plugin store value must be at most 64 KB of JSON');
    return text;
  };
  const decode = (text: string) => JSON.parse(text) as PluginJsonValue;
  return {
    async get(key) {
      checkKey(key);
      const value = await readStoreValue(db, appid, key);
      return value !== undefined ? decode(value) : undefined;
    },
    async set(key, value) {
      checkKey(key);
      await upsertStoreValue(db, appid, key, encode(value));
    },
    async add(key, value) {
      checkKey(key);
      return insertStoreValue(db, appid, key, encode(value));
    },
    async delete(key) {
      checkKey(key);
      await deleteStoreValue(db, appid, key);
    },
    async list(prefix = '') {
      const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
      const rows = await listStoreValues(db, appid, escaped);
      return rows.map((r) => ({ key: r.key, value: decode(r.value) }));
    },
    async increment(key, by = 1) {
      checkKey(key);
      if (!Number.isSafeInteger(by)) throw new Error('increment by a whole number');
      return Number(await incrementStoreValue(db, appid, key, by));
    },
  };
}

const runtimes = new WeakMap<AppContext, PluginRuntime>();

/** The app's plugin runtime: one per app, shared by the plugin routes and the plugins' event subscriber. */
export function pluginRuntime(ctx: AppContext): PluginRuntime {
  let runtime = runtimes.get(ctx);
  if (!runtime) runtimes.set(ctx, (runtime = new PluginRuntime(ctx)));
  return runtime;
}

export class PluginRuntime {
  private readonly loaded = new Map<string, Loaded>();

  constructor(private readonly ctx: AppContext) {}

  private folder(appid: string, hash: string): string {
    return path.join(this.ctx.config.dataDir, 'plugin-cache', appid, hash);
  }

  /**
   * Loads the plugin's current server part (if it has one and it is not loaded yet). Throws what the module threw,
   * so the caller can disable the plugin and say why.
   */
  async load(appid: string): Promise<Loaded | null> {
    const row = await findPlugin(this.ctx.db, appid);
    if (!row) return null;
    const current = this.loaded.get(appid);
    if (current?.hash === row.contentHash) return current;
    const manifest = parseManifest(row);
    if (!manifest.server) {
      const none = { hash: row.contentHash, routes: [], handlers: new Map() };
      this.loaded.set(appid, none);
      return none;
    }
    // Written as .mjs whatever the package calls it: Node decides between ES module and CommonJS for a .js file by
    // the nearest package.json above it, and a folder above DATA_DIR may hold one saying "commonjs". The module is
    // self-contained (only node: imports), so it needs none of the package's other files beside it.
    const entry = path.join(this.folder(appid, row.contentHash), 'server.mjs');
    try {
      await fs.access(entry);
    } catch {
      const files = await readPluginFiles(this.ctx.db, appid, row.contentHash);
      const server = files.find((f) => f.path === manifest.server);
      if (!server) throw new Error(`the server module ${manifest.server} is missing`);
      await fs.mkdir(path.dirname(entry), { recursive: true });
      // Another process may be importing the same file: it appears whole or not at all.
      const partial = `${entry}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(partial, server.body);
      await fs.rename(partial, entry);
    }
    const routes: Route[] = [];
    const add = (method: 'GET' | 'POST') => (routePath: string, handler: PluginHandler) => {
      if (typeof handler !== 'function') throw new Error(`the ${method} route ${routePath} has no handler`);
      routes.push({ method, segments: split(String(routePath)), handler });
    };
    const router = { get: add('GET'), post: add('POST') };
    const handlers = new Map<DomainEventName, EventHandler[]>();
    const log = this.ctx.log.child({ plugin: appid });
    const context: PluginServerContext = {
      appid,
      settings: async () => {
        const fresh = await findPlugin(this.ctx.db, appid);
        return fresh ? settingsOf(fresh, parseManifest(fresh).settings, false) : {};
      },
      store: pluginStore(this.ctx.db, appid),
      events: {
        on(names, handler) {
          if (typeof handler !== 'function') throw new Error('ctx.events.on needs a handler function');
          for (const name of typeof names === 'string' ? [names] : names) {
            if (!isDomainEventName(name)) throw new Error(`ctx.events.on: no event is called ${String(name)}`);
            handlers.set(name, [...(handlers.get(name) ?? []), handler as EventHandler]);
          }
        },
      },
      log: {
        info: (message, data) => log.info({ data }, message),
        warn: (message, data) => log.warn({ data }, message),
        error: (message, data) => log.error({ data }, message),
      },
    };
    // One deadline for importing the module and for its register(): a module whose top-level await never settles
    // would otherwise hang its enabling, every call to its routes and the events it hears.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the server module took too long to load')), LOAD_TIMEOUT_MS);
    });
    try {
      const module = (await Promise.race([import(pathToFileURL(entry).href), deadline])) as { default?: unknown };
      if (typeof module.default !== 'function') throw new Error('the server module has no default export function');
      const register = module.default as (r: typeof router, c: PluginServerContext) => unknown;
      await Promise.race([Promise.resolve(register(router, context)), deadline]);
    } finally {
      clearTimeout(timer);
    }
    const loaded = { hash: row.contentHash, routes, handlers };
    this.loaded.set(appid, loaded);
    return loaded;
  }

  /** The handlers the plugin's current server module registered for an event (loading it if needed). */
  async handlersFor(appid: string, name: DomainEventName): Promise<EventHandler[]> {
    const loaded = await this.load(appid);
    return loaded?.handlers.get(name) ?? [];
  }

  forget(appid: string): void {
    this.loaded.delete(appid);
  }

  /** The route of a request, or null when the plugin (enabled) has none for it. */
  async route(appid: string, method: string, pathName: string) {
    const loaded = await this.load(appid);
    return loaded ? matchRoute(loaded.routes, method, pathName) : null;
  }
}

/**
 * The viewer as a plugin's routes see it. An administrator's API key without the admin scope does not make them an
 * administrator there: plugins guard their administration with `isAdmin` alone, as the forum guards its back office
 * with the key's scope too (access/api-key-scope.ts).
 */
export function pluginViewer(viewer: ViewerContext): PluginViewer | null {
  if (!viewer.user) return null;
  return {
    id: viewer.user.id,
    username: viewer.user.username,
    nickname: viewer.user.nickname,
    isAdmin: viewer.isAdmin && (viewer.apiKey === undefined || viewer.apiKey.scope === 'admin'),
    permissions: [...viewer.permissions],
  };
}
