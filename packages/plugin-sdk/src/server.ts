/*
 * The server half of a plugin: the package's `server` file is an ES module whose default export registers routes.
 * The forum loads it in its own process, so it must be self-contained (`npm run plugin:pack` bundles it, leaving only
 * `node:` built-ins as imports) and it talks to the forum only through the router and the context given here.
 * This file imports nothing but types (erased when bundled) and messages.ts (the plugin's catalogues, itself free of
 * imports), so a server module imports from
 * `@luntan/plugin-sdk/server` (this file alone) rather than the SDK's main entry, which brings the shared schemas and
 * zod into the bundle.
 */
import type { DeliveredEvent, DomainEventName } from '@luntan/shared';

export * from './messages.js';

/** The forum's response codes a plugin's answers usually need (the same numbers as @luntan/shared's Code). */
export const PluginErrorCode = {
  INVALID_PARAMETER: -4001,
  UNAUTHORIZED: -4002,
  RESOURCE_EXIST: -4003,
  RESOURCE_NOT_FOUND: -4004,
  RESOURCE_IN_USE: -4005,
  INTERNAL_ERROR: -5002,
} as const;

/** A setting's value, as the back office saved it (or the field's default). */
export type PluginSettingValue = string | number | boolean;

/** What the plugin store keeps: JSON. */
export type PluginJsonValue = string | number | boolean | null | PluginJsonValue[] | { [key: string]: PluginJsonValue };

/** The signed-in member making the request. */
export interface PluginViewer {
  id: number;
  username: string;
  nickname: string;
  isAdmin: boolean;
  /** The permission keys the member's group grants (packages/shared/src/permissions.ts). */
  permissions: string[];
}

/** One call of a plugin route. The forum parses the query string and the JSON body; the plugin validates both. */
export interface PluginRequest<Body = unknown> {
  method: 'GET' | 'POST';
  /** The path under /api/plugin/<appid>/, as requested. */
  path: string;
  /** The values of the route's `:name` segments. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The JSON body; null when there is none. */
  body: Body;
  /** null for a guest. */
  viewer: PluginViewer | null;
}

/**
 * Returns what becomes the envelope's `Data` (return an object: null and undefined become `{}`), or throws a
 * PluginError.
 */
export type PluginRouteHandler = (request: PluginRequest) => unknown;

/**
 * Routes are served at `/api/plugin/<appid>/<path>`; a path may hold `:name` segments (`poll/:id`), whose values
 * arrive in `params`.
 */
export interface PluginServerRouter {
  get(path: string, handler: PluginRouteHandler): void;
  post(path: string, handler: PluginRouteHandler): void;
}

/**
 * The plugin's own key-value store, kept by the forum in its database and removed with the plugin. Keys are 1 to 255
 * characters; a value is JSON of at most 64 KB.
 */
export interface PluginStore {
  /** The value, or undefined when the key is not set. */
  get(key: string): Promise<PluginJsonValue | undefined>;
  set(key: string, value: PluginJsonValue): Promise<void>;
  /** Stores the value only when the key is new, atomically; answers whether it did (one vote per member). */
  add(key: string, value: PluginJsonValue): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** The entries whose key starts with prefix (all without one), ordered by key, at most 1,000. */
  list(prefix?: string): Promise<Array<{ key: string; value: PluginJsonValue }>>;
  /** Adds `by` (a whole number, default 1) to the number kept under the key (0 when new), atomically; answers it. */
  increment(key: string, by?: number): Promise<number>;
}

export interface PluginLogger {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

/**
 * A domain event as a plugin hears it: the forum's one list of events and payloads (`DOMAIN_EVENTS` in
 * @luntan/shared, docs/architecture.md "Events"): `{ id, name, payload, at, attempt }`. A payload carries ids.
 */
export type PluginEvent<N extends DomainEventName = DomainEventName> = DeliveredEvent<N>;
export type PluginEventName = DomainEventName;

/**
 * Hears events after the change that caused them was committed, once across the forum's processes. A handler that
 * throws (or takes more than 10 s) is logged and called again later with the same event (`event.id` stays, `attempt`
 * grows), up to 12 times; the other plugins' handlers are not called twice for it. Handlers registered on a
 * disabled or removed plugin are not called.
 */
export interface PluginEvents {
  on<N extends DomainEventName>(
    names: N | readonly N[],
    handler: (event: PluginEvent<N>) => void | Promise<void>,
  ): void;
}

export interface PluginServerContext {
  appid: string;
  /** Domain events (post.created, user.followed, order.paid ...): `ctx.events.on('post.created', (e) => ...)`. */
  events: PluginEvents;
  /** Every setting of the plugin, secret ones included (the back office's values, else the declared defaults). */
  settings(): Promise<Record<string, PluginSettingValue>>;
  store: PluginStore;
  log: PluginLogger;
}

/**
 * The default export of a plugin's server module: registers the routes. It must finish within 5 s; a module that
 * throws (or takes longer) is not run and its plugin is disabled, with the reason shown in the back office.
 */
export type PluginServerModule = (router: PluginServerRouter, ctx: PluginServerContext) => void | Promise<void>;

/**
 * An answer the plugin chose: the forum sends `{ Code: code, Message: message }` instead of a success. The code must
 * be one of the forum's response codes (PluginErrorCode holds the usual ones: -4001 invalid parameter, -4002
 * unauthorized, -4003 exists, -4004 not found...). Any other error a handler throws becomes -5002, with the detail
 * only in the forum's log.
 */
export class PluginError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'PluginError';
    this.code = code;
  }
}

/**
 * Whether a thrown value is a PluginError. Checks the shape, not the class: each plugin's bundle carries its own copy
 * of the class, so `instanceof` against another copy would be false. (The forum itself takes any thrown value with a
 * numeric `code` it knows and a string `message`.)
 */
export function isPluginError(error: unknown): error is PluginError {
  if (!(error instanceof Error) || error.name !== 'PluginError') return false;
  const code: unknown = (error as Error & { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code);
}

/** Gives a server module its types: `export default definePluginServer((router, ctx) => { ... })`. */
export function definePluginServer(fn: PluginServerModule): PluginServerModule {
  return fn;
}
