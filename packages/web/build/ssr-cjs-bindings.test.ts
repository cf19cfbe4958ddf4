// @vitest-environment node
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { ssrCjsBindings } from './ssr-cjs-bindings';

const PACKAGE = path.resolve(import.meta.dirname, '..');

/** A server build of `source` (an entry.js in this package, where React resolves), with or without the plugin. */
async function serverBuild(source: string, withPlugin: boolean): Promise<string> {
  const dir = fs.mkdtempSync(path.join(PACKAGE, '.bindings-test-'));
  dirs.push(dir);
  const entry = path.join(dir, 'entry.js');
  fs.writeFileSync(entry, source);
  await build({
    configFile: false,
    logLevel: 'silent',
    root: PACKAGE,
    plugins: withPlugin ? [ssrCjsBindings()] : [],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    ssr: { noExternal: true },
    build: { ssr: entry, outDir: path.join(dir, 'out'), write: true, minify: false },
  });
  return fs.readFileSync(path.join(dir, 'out', 'entry.js'), 'utf8');
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const SOURCE = `
import { jsx } from 'react/jsx-runtime';
import { useState } from 'react';
export function Counter() { const [n] = useState(1); return jsx('b', { children: n }); }
`;

describe('ssrCjsBindings', () => {
  it('imports React and its JSX runtime as bindings read once, not through a getter per call', async () => {
    const without = await serverBuild(SOURCE, false);
    // What the bundler does by itself: every call reads the export through the namespace's getter.
    expect(without).toMatch(/\(0, import_jsx_runtime\.jsx\)\(/);
    const bundle = await serverBuild(SOURCE, true);
    expect(bundle).not.toMatch(/import_jsx_runtime\.jsx\)|import_react\.useState\)/);
    expect(bundle).toMatch(/\bjsx\("b"/);
    expect(bundle).toMatch(/\buseState\(1\)/);
  }, 60_000);

  it('leaves what CommonJS modules require alone', async () => {
    const plugin = ssrCjsBindings();
    const resolve = plugin.resolveId as (id: string, importer: string | undefined, options: object) => unknown;
    expect(resolve('react', '/x/react-dom.js', { kind: 'require-call' })).toBeNull();
    expect(resolve('react', '/x/app.js', { kind: 'import-statement' })).toBe('\0luntan-bindings:react');
    expect(resolve('react-dom', '/x/app.js', { kind: 'import-statement' })).toBeNull();
  });
});
