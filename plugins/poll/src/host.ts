/**
 * The parts of the forum's render inputs this plugin reads. The full types come with the web runtime
 * (@luntan/plugin-sdk's runtime types); these are kept minimal so the plugin depends on no more than it uses.
 */

export interface PluginCallInit {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

export interface PluginAction {
  /** Calls a route of this plugin (`/api/plugin/poll/<path>`): resolves with its Data, rejects when Code is not 0. */
  call<T = unknown>(path: string, init?: PluginCallInit): Promise<T>;
}
