import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * The modules a plugin may import, served by the forum: `react`, `react/jsx-runtime` and `@luntan/plugin-sdk`.
 *
 * A plugin's client module is loaded at run time with `import()`, outside the app's bundle, so its bare imports
 * are resolved by the page's import map (written by the server renderer, see src/server/assets.ts). The map points
 * each specifier at a small ES module generated here, which re-exports the app's own instance from a global that
 * the app sets before loading any plugin (src/plugin-runtime/plugin-globals.ts): one React, so hooks work across
 * the boundary. ES module named exports are static, so every export name is listed at build time.
 */
export const PLUGIN_RUNTIME_GLOBAL = '__LUNTAN_PLUGIN_RUNTIME__';
/** Written next to Vite's manifest: `{ imports: { specifier: url } }`, read by the server renderer. */
export const IMPORT_MAP_FILE = '.vite/plugin-import-map.json';

const require = createRequire(import.meta.url);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function exportNamesOf(files: string[]): string[] {
  const names = new Set<string>();
  for (const file of files) for (const name of Object.keys(require(file) as object)) names.add(name);
  return [...names].filter((name) => IDENTIFIER.test(name) && name !== 'default' && !name.startsWith('__')).sort();
}

/** React's exports in both of its builds (development ones run in tests, production ones on the site). */
function reactExportNames(): string[] {
  const root = path.dirname(require.resolve('react/package.json'));
  return exportNamesOf([path.join(root, 'cjs/react.production.js'), path.join(root, 'cjs/react.development.js')]);
}

function jsxRuntimeExportNames(): string[] {
  const root = path.dirname(require.resolve('react/package.json'));
  return exportNamesOf([
    path.join(root, 'cjs/react-jsx-runtime.production.js'),
    path.join(root, 'cjs/react-jsx-runtime.development.js'),
  ]);
}

/** The SDK's value exports (types need no shim), read from its TypeScript source. */
function sdkExportNames(sdkIndex: string): string[] {
  const program = ts.createProgram([sdkIndex], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    customConditions: ['source'],
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(sdkIndex);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`plugin shims: cannot read the exports of ${sdkIndex}`);
  const names = checker
    .getExportsOfModule(moduleSymbol)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    })
    .map((symbol) => symbol.getName());
  return names.filter((name) => IDENTIFIER.test(name) && name !== 'default').sort();
}

/** One shim: `export default` the module object's default (or itself), and each name from it. */
function shimSource(key: string, names: string[]): string {
  return [
    `const m = globalThis.${PLUGIN_RUNTIME_GLOBAL}?.${key};`,
    `if (!m) throw new Error('Luntan plugin runtime: ${key} is not available');`,
    'export default m.default ?? m;',
    names.length ? `export const { ${names.join(', ')} } = m;` : '',
    '',
  ].join('\n');
}

export interface PluginShim {
  specifier: string;
  fileName: string;
  source: string;
}

export function buildPluginShims(sdkIndex: string): PluginShim[] {
  const shims = [
    { specifier: 'react', name: 'react', source: shimSource('react', reactExportNames()) },
    { specifier: 'react/jsx-runtime', name: 'jsx-runtime', source: shimSource('jsxRuntime', jsxRuntimeExportNames()) },
    { specifier: '@luntan/plugin-sdk', name: 'plugin-sdk', source: shimSource('sdk', sdkExportNames(sdkIndex)) },
  ];
  return shims.map(({ specifier, name, source }) => {
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
    return { specifier, fileName: `assets/plugin-runtime/${name}-${hash}.js`, source };
  });
}

/**
 * The browser build's shims (hashed, under /assets/, served immutable) and the import map that names them. The
 * server build needs neither: it reads the map the browser build wrote.
 */
export function pluginShims(): Plugin {
  const sdkIndex = fileURLToPath(new URL('../../plugin-sdk/src/index.ts', import.meta.url));
  return {
    name: 'luntan-plugin-shims',
    apply: 'build',
    generateBundle() {
      const shims = buildPluginShims(sdkIndex);
      const imports: Record<string, string> = {};
      for (const shim of shims) {
        this.emitFile({ type: 'asset', fileName: shim.fileName, source: shim.source });
        imports[shim.specifier] = '/' + shim.fileName;
      }
      this.emitFile({ type: 'asset', fileName: IMPORT_MAP_FILE, source: JSON.stringify({ imports }, null, 2) });
    },
  };
}
