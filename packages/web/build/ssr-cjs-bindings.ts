import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
const PREFIX = '\0luntan-bindings:';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The server bundle's React and JSX runtime as plain bindings. The bundler wraps a CommonJS package imported by ES
 * modules in a namespace whose every export is a getter (`__toESM`), so each `jsx(...)` and hook call of a render
 * went through a bound function: about 4 % of a page's render (docs/performance.md, "fourteenth part"). Each of these
 * packages is imported instead through a module that reads its exports once (`export const { jsx, jsxs } = m`).
 * Only for the server build: the browser's bundle is left as the bundler makes it.
 */
export function ssrCjsBindings(packages: readonly string[] = ['react', 'react/jsx-runtime']): Plugin {
  return {
    name: 'luntan-ssr-cjs-bindings',
    enforce: 'pre',
    resolveId(id, importer, options) {
      // The module itself imports the package as it is, and so do CommonJS modules (`require`: React DOM).
      const kind = (options as { kind?: string } | undefined)?.kind;
      if (!packages.includes(id) || importer?.startsWith(PREFIX) || kind === 'require-call') return null;
      return PREFIX + id;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const name = id.slice(PREFIX.length);
      // The exports of the package as this build's Node loads it (the development build: a superset of production's).
      const names = Object.keys(require(name) as object).filter((key) => key !== 'default' && IDENTIFIER.test(key));
      return [
        `import m from ${JSON.stringify(name)};`,
        'export default m;',
        `export const { ${names.join(', ')} } = m;`,
      ].join('\n');
    },
  };
}
