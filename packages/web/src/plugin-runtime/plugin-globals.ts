import * as sdk from '@luntan/plugin-sdk';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';

/**
 * The app's own React, JSX runtime and SDK, where the import map's shim modules read them (build/plugin-shims.ts
 * writes those modules; the name must match). Set before the first plugin module is imported.
 */
export const PLUGIN_RUNTIME_GLOBAL = '__LUNTAN_PLUGIN_RUNTIME__';

export function exposePluginRuntime(): void {
  const scope = globalThis as Record<string, unknown>;
  scope[PLUGIN_RUNTIME_GLOBAL] ??= Object.freeze({ react: React, jsxRuntime, sdk });
}
