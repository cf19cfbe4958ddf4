import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pluginManifestSchema } from '@luntan/shared';
import * as tar from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_MAP_SPECIFIERS, PackError, packPlugin } from './pack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-pack-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** `npm run plugin:pack -- <args>` from the repository's root, as a person types it. */
function packCommand(...args: string[]) {
  const env = { ...process.env };
  delete env.INIT_CWD;
  const run = spawnSync('npm', ['run', '--silent', 'plugin:pack', '--', ...args], { cwd: root, env, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function unpack(archive: string, into: string): Promise<string[]> {
  const entries: string[] = [];
  await tar.t({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
  fs.mkdirSync(into, { recursive: true });
  await tar.x({ file: archive, cwd: into });
  return entries.sort();
}

/** A plugin folder in the temp folder: plugin.json plus the given sources. */
function fixture(name: string, manifest: Record<string, unknown>, files: Record<string, string>): string {
  const dir = path.join(work, 'fixtures', name);
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(manifest));
  for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), content);
  return dir;
}

const manifest = {
  pluginName: 'Fixture',
  version: '1.2.3',
  author: { name: 'T', email: 't@example.com' },
  type: 'tool',
  appid: 'fixture',
  platform: ['pc'],
  entries: [{ target: 'plugin_index', hookName: 'right_insert', component: 'Box' }],
  client: 'client.js',
};

describe('npm run plugin:pack', () => {
  it.each(['poll', 'custom-page', 'site-qrcode', 'notice-bar'])(
    'packs plugins/%s into an archive whose plugin.json validates and whose files are all there',
    async (name) => {
      const out = path.join(work, 'out', name);
      const run = packCommand(`plugins/${name}`, '--out', out);
      expect(run.status, run.stderr).toBe(0);

      const source = JSON.parse(fs.readFileSync(path.join(root, 'plugins', name, 'plugin.json'), 'utf8')) as unknown;
      const packed = pluginManifestSchema.parse(source);
      const archive = path.join(out, `${packed.appid}-${packed.version}.tgz`);
      const dir = path.join(work, 'unpacked', name);
      const entries = await unpack(archive, dir);
      const declared = [packed.client, packed.server, packed.style].filter((f): f is string => f !== undefined);
      expect(entries).toEqual(['plugin.json', ...declared].sort());

      const inArchive = pluginManifestSchema.safeParse(
        JSON.parse(fs.readFileSync(path.join(dir, 'plugin.json'), 'utf8')),
      );
      expect(inArchive.success).toBe(true);
      expect(inArchive.data).toEqual(packed);

      // The client module imports only what the forum's import map provides and exports every entry's component.
      const client = fs.readFileSync(path.join(dir, packed.client), 'utf8');
      const imports = [...client.matchAll(/\bfrom\s*"([^"]+)"|\bimport\s*"([^"]+)"/g)].map((m) => m[1] ?? m[2]);
      expect(imports.filter((s) => !(IMPORT_MAP_SPECIFIERS as readonly string[]).includes(s!))).toEqual([]);
      const exported = /export\s*\{([^}]*)\}/.exec(client)?.[1] ?? '';
      for (const entry of packed.entries) expect(exported).toMatch(new RegExp(`\\b${entry.component}\\b`));

      if (packed.server) {
        // A self-contained Node module: it loads from the temp folder, far from any node_modules, and registers.
        const server = (await import(pathToFileURL(path.join(dir, packed.server)).href)) as {
          default: (router: unknown, ctx: unknown) => unknown;
        };
        const routes: string[] = [];
        const router = { get: (p: string) => routes.push(`GET ${p}`), post: (p: string) => routes.push(`POST ${p}`) };
        await server.default(router, { appid: packed.appid, store: {}, log: console, settings: async () => ({}) });
        expect(routes.length).toBeGreaterThan(0);
      }
    },
  );

  it('prints the written problems of an invalid plugin.json and exits 1', () => {
    const dir = fixture(
      'invalid',
      {
        ...manifest,
        version: '1.0',
        platform: [],
        entries: [{ target: 'plugin_global', hookName: 'right_insert', component: 'Box' }],
      },
      { 'src/client.tsx': 'export const Box = () => null;' },
    );
    const run = packCommand(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('The plugin cannot be packed');
    expect(run.stderr).toContain('plugin.json version: The version must be three numbers of 1 to 3 digits');
    expect(run.stderr).toContain('plugin.json platform:');
    expect(run.stderr).toContain('Target plugin_global has no hook named right_insert');
    expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
  });
});

describe('packPlugin', () => {
  const problemsOf = async (dir: string) => {
    const error: unknown = await packPlugin(dir, { outDir: path.join(work, 'out-fixtures') }).then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof PackError)) throw new Error(`expected a PackError, got ${String(error)}`);
    return error.problems.join('\n');
  };

  it('builds CSS into the style file, and refuses CSS that plugin.json does not name', async () => {
    const files = {
      'src/client.tsx': 'import \'./box.css\';\nexport function Box() { return <div className="box">box</div>; }',
      'src/box.css': '.box { color: red; }',
    };
    const styled = fixture('styled', { ...manifest, style: 'style.css' }, files);
    const result = await packPlugin(styled, { outDir: path.join(work, 'out-fixtures') });
    expect(result.files).toEqual(['plugin.json', 'client.js', 'style.css']);
    const entries = await unpack(result.archive, path.join(work, 'unpacked', 'styled'));
    expect(entries).toEqual(['client.js', 'plugin.json', 'style.css']);
    expect(fs.readFileSync(path.join(work, 'unpacked', 'styled', 'style.css'), 'utf8')).toContain('.box');
    expect(await problemsOf(fixture('unstyled', manifest, files))).toContain('add "style": "style.css"');
  });

  it('refuses a component plugin.json names that the client does not export', async () => {
    const dir = fixture('missing-export', manifest, { 'src/client.tsx': 'export const Other = () => null;' });
    expect(await problemsOf(dir)).toContain('the client module exports no Box (it exports Other)');
  });

  it('refuses a client that imports what the import map does not provide', async () => {
    const dir = fixture('react-dom', manifest, {
      'src/client.tsx':
        "import { createPortal } from 'react-dom';\nexport const Box = () => createPortal(null, document.body);",
    });
    expect(await problemsOf(dir)).toContain('the client imports react-dom, which the forum does not provide');
  });

  it('refuses a server source without "server" in plugin.json, and the reverse', async () => {
    const client = { 'src/client.tsx': 'export const Box = () => null;' };
    const unnamed = fixture('unnamed-server', manifest, { ...client, 'src/server.ts': 'export default () => {};' });
    expect(await problemsOf(unnamed)).toContain('add "server": "server.js"');
    const missing = fixture('missing-server', { ...manifest, server: 'server.js' }, client);
    expect(await problemsOf(missing)).toContain('there is no src/server.ts or src/server.js');
  });

  it('bundles the server with node built-ins spelt node: and refuses one without a default export', async () => {
    const client = { 'src/client.tsx': 'export const Box = () => null;' };
    const withBuiltin = fixture(
      'builtin-server',
      { ...manifest, server: 'server.js' },
      {
        ...client,
        'src/server.ts': "import { createHash } from 'crypto';\nexport default () => createHash('sha1');",
      },
    );
    const result = await packPlugin(withBuiltin, { outDir: path.join(work, 'out-fixtures') });
    await unpack(result.archive, path.join(work, 'unpacked', 'builtin-server'));
    const server = fs.readFileSync(path.join(work, 'unpacked', 'builtin-server', 'server.js'), 'utf8');
    expect(server).toMatch(/from "node:crypto"/);
    const noDefault = fixture(
      'no-default',
      { ...manifest, server: 'server.js' },
      {
        ...client,
        'src/server.ts': 'export const routes = 1;',
      },
    );
    expect(await problemsOf(noDefault)).toContain('the server module has no default export');
  });
});
