/*
 * The server half of a plugin: the package's `server` file is an ES module whose default export registers routes.
 * The forum loads it in its own process, so it must be self-contained (`npm run plugin:pack` bundles it, leaving only
 * `node:` built-ins as imports) and it talks to the forum only through the router and the context given here.
 * Nothing in this file imports anything, so a server module imports from `@luntan/plugin-sdk/server` (this file
 * alone) rather than the SDK's main entry, which brings the shared schemas and zod into the bundle.
 */

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
  query: Record<string, unknown>;
  body: Body;
  /** null for a guest. */
  viewer: PluginViewer | null;
  params: Record<string, string>;
}

/** Returns what becomes the envelope's `Data`, or throws a PluginError. */
export type PluginRouteHandler = (request: PluginRequest) => unknown;

/** Routes are served at `/api/plugin/<appid>/<path>`. */
export interface PluginServerRouter {
  get(path: string, handler: PluginRouteHandler): void;
  post(path: string, handler: PluginRouteHandler): void;
}

/** The plugin's own key-value store (JSON values), kept by the forum in its database. */
export interface PluginStore {
  /** The value, or null when the key is not set. */
  get(key: string): Promise<PluginJsonValue | null>;
  set(key: string, value: PluginJsonValue): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every entry whose key starts with prefix (all of them without one). */
  list(prefix?: string): Promise<Array<{ key: string; value: PluginJsonValue }>>;
  /** Adds `by` (a number) to the key's number atomically and returns the new value; a missing key counts as 0. */
  increment?(key: string, by: number): Promise<number>;
}

export interface PluginLogger {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

export interface PluginServerContext {
  appid: string;
  /** Every setting of the plugin, secret ones included (the back office's values, else the declared defaults). */
  settings(): Promise<Record<string, PluginSettingValue>>;
  store: PluginStore;
  log: PluginLogger;
}

/** The default export of a plugin's server module. */
export type PluginServerModule = (router: PluginServerRouter, ctx: PluginServerContext) => void | Promise<void>;

/**
 * An answer the plugin chose: the forum sends `{ Code: code, Message: message }` instead of a success. Use the
 * forum's codes (-4001 invalid parameter, -4002 unauthorized, -4003 exists, -4004 not found...). Any other error
 * thrown by a handler becomes -5002 with the detail only in the forum's log.
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
 * Whether a thrown value is a PluginError. The forum checks the shape, not the class: each plugin's bundle carries
 * its own copy of the class, so `instanceof` against the forum's copy would be false.
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
