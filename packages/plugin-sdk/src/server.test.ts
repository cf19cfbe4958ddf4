import { describe, expect, it } from 'vitest';
import { Code } from '@luntan/shared';
import * as serverEntry from './server.js';
import {
  compareVersions,
  comparePluginVersions,
  definePluginServer,
  isPluginError,
  PLUGIN_HOOKS,
  PluginError,
  PluginErrorCode,
  pluginManifestSchema,
} from './index.js';

describe('PluginError', () => {
  it('carries a code and a message, and is recognised by shape', () => {
    const error = new PluginError(-4004, 'no poll');
    expect(error).toBeInstanceOf(Error);
    expect({ code: error.code, message: error.message, name: error.name }).toEqual({
      code: -4004,
      message: 'no poll',
      name: 'PluginError',
    });
    expect(isPluginError(error)).toBe(true);
  });

  it("recognises another bundle's copy of the class, and nothing else", () => {
    // What a plugin's own bundled copy of the class looks like to the forum.
    class CopiedPluginError extends Error {
      readonly code: number;
      constructor(code: number, message: string) {
        super(message);
        this.name = 'PluginError';
        this.code = code;
      }
    }
    expect(isPluginError(new CopiedPluginError(-4001, 'bad'))).toBe(true);
    expect(isPluginError(new Error('plain'))).toBe(false);
    expect(isPluginError({ name: 'PluginError', code: -4001, message: 'not an Error' })).toBe(false);
    expect(isPluginError(Object.assign(new Error('x'), { name: 'PluginError', code: '-4001' }))).toBe(false);
  });
});

describe('the SDK', () => {
  it('definePluginServer returns the module as given', () => {
    const register = () => {};
    expect(definePluginServer(register)).toBe(register);
  });

  it("re-exports the shared contract and keeps the first version's helpers", () => {
    expect(PLUGIN_HOOKS.plugin_global).toContain('header_replace');
    expect(compareVersions('1.2.10', '1.3.0')).toBeGreaterThan(0);
    expect(comparePluginVersions('1.0.0', '1.0.1')).toBeLessThan(0);
    expect(pluginManifestSchema.safeParse({}).success).toBe(false);
  });
});

describe('@luntan/plugin-sdk/server', () => {
  it("holds the server half alone (and the plugin's catalogues), with the forum's own code numbers", () => {
    expect(Object.keys(serverEntry).sort()).toEqual([
      'PluginError',
      'PluginErrorCode',
      'definePluginMessages',
      'definePluginServer',
      'isPluginError',
    ]);
    for (const [name, value] of Object.entries(PluginErrorCode)) expect(value).toBe(Code[name as keyof typeof Code]);
  });
});
