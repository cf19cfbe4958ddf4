/**
 * `npm run plugin:pack -- <plugin folder> [--out <folder>]`: builds a plugin folder into the archive the back office
 * installs (docs/plugins.md, "Packing").
 *
 * The convention: plugin.json names the built files (`client: "client.js"`, optional `server: "server.js"` and
 * `style: "style.css"`); the sources are `src/client.(tsx|ts|jsx|js)` and `src/server.(ts|js)`. The client is built
 * with Vite in library mode (one ES module; react, react/jsx-runtime, react-dom and @luntan/plugin-sdk left as
 * imports for the forum's import map), its CSS into the `style` file; the server is bundled for Node with only `node:`
 * built-ins left as imports. The archive, `<out>/<appid>-<version>.tgz` (out defaults to `<folder>/dist`), holds
 * plugin.json and the built files at its root.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeIssue, pluginManifestSchema, type PluginManifest } from '@luntan/shared';
import * as tar from 'tar';
import { build, defaultClientConditions, defaultServerConditions, type Plugin, type Rolldown } from 'vite';

/** What the forum's import map provides to a client module. */
export const IMPORT_MAP_SPECIFIERS = ['react', 'react/jsx-runtime', '@luntan/plugin-sdk'] as const;
/** Left out of the client bundle: one copy of React and of the SDK for the whole page. */
const CLIENT_EXTERNAL = /^(?:react|react-dom|@luntan\/plugin-sdk)(?:\/.*)?$/;
const CLIENT_SOURCES = ['client.tsx', 'client.ts', 'client.jsx', 'client.js'];
const SERVER_SOURCES = ['server.ts', 'server.js'];
const NODE_BUILTINS = new Set(builtinModules);

/** The plugin cannot be packed; `problems` are sentences for its author. */
export class PackError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'PackError';
  }
}

export interface PackOptions {
  /** Where the archive goes; default `<dir>/dist`. */
  outDir?: string;
  /** Progress lines; default none. */
  log?: (line: string) => void;
}

export interface PackResult {
  archive: string;
  manifest: PluginManifest;
  /** The archive's entries: plugin.json and the built files. */
  files: string[];
}

export async function packPlugin(dir: string, options: PackOptions = {}): Promise<PackResult> {
  const root = path.resolve(dir);
  const log = options.log ?? (() => {});
  const manifest = readManifest(root);
  const clientSource = findSource(root, CLIENT_SOURCES);
  const serverSource = findSource(root, SERVER_SOURCES);
  checkLayout(manifest, clientSource, serverSource);

  const outDir = path.resolve(options.outDir ?? path.join(root, 'dist'));
  fs.mkdirSync(outDir, { recursive: true });
  const stage = fs.mkdtempSync(path.join(outDir, '.pack-'));
  try {
    log(`building ${path.relative(root, clientSource!)} -> ${manifest.client}`);
    const client = await buildClient(root, clientSource!, manifest, stage);
    const files = [manifest.client, ...(client.style ? [client.style] : [])];
    if (serverSource && manifest.server) {
      log(`building ${path.relative(root, serverSource)} -> ${manifest.server}`);
      await buildServer(root, serverSource, manifest.server, stage);
      files.push(manifest.server);
    }
    // The manifest as the author wrote it: the forum reads the same file the author validated.
    fs.copyFileSync(path.join(root, 'plugin.json'), path.join(stage, 'plugin.json'));

    const archive = path.join(outDir, `${manifest.appid}-${manifest.version}.tgz`);
    const entries = ['plugin.json', ...files];
    await tar.create({ gzip: true, file: archive, cwd: stage, portable: true, noDirRecurse: true }, entries);
    log(`wrote ${archive}`);
    return { archive, manifest, files: entries };
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

function readManifest(root: string): PluginManifest {
  const file = path.join(root, 'plugin.json');
  if (!fs.existsSync(file)) throw new PackError([`${file} does not exist: a plugin folder holds plugin.json`]);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PackError([`plugin.json is not valid JSON: ${(error as Error).message}`]);
  }
  const parsed = pluginManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new PackError(
      parsed.error.issues.map((issue) => {
        const described = describeIssue(issue, { schema: pluginManifestSchema, input: raw });
        return `plugin.json ${described.field}: ${described.message.en}`;
      }),
    );
  }
  const keys = parsed.data.settings.map((field) => field.key);
  const repeated = keys.filter((key, i) => keys.indexOf(key) !== i);
  if (repeated.length > 0) throw new PackError([`plugin.json settings: the key ${repeated[0]} is declared twice`]);
  return parsed.data;
}

function findSource(root: string, names: string[]): string | undefined {
  return names.map((name) => path.join(root, 'src', name)).find((file) => fs.existsSync(file));
}

function checkLayout(manifest: PluginManifest, clientSource?: string, serverSource?: string): void {
  const problems: string[] = [];
  if (!clientSource) problems.push(`no client source: write src/${CLIENT_SOURCES.join(' or src/')}`);
  if (!/\.m?js$/.test(manifest.client))
    problems.push(`plugin.json client must name a .js file (it says ${manifest.client})`);
  if (manifest.server && !/\.m?js$/.test(manifest.server)) {
    problems.push(`plugin.json server must name a .js file (it says ${manifest.server})`);
  }
  if (manifest.style && !manifest.style.endsWith('.css')) {
    problems.push(`plugin.json style must name a .css file (it says ${manifest.style})`);
  }
  if (manifest.server && !serverSource) {
    problems.push(
      `plugin.json names a server module (${manifest.server}) but there is no src/server.ts or src/server.js`,
    );
  }
  if (serverSource && !manifest.server) {
    problems.push(`${path.basename(serverSource)} exists but plugin.json has no "server": add "server": "server.js"`);
  }
  const names = [manifest.client, manifest.server, manifest.style].filter((name) => name !== undefined);
  if (new Set(names).size !== names.length)
    problems.push('plugin.json client, server and style must be different files');
  if (names.includes('plugin.json')) problems.push('no built file may be called plugin.json');
  if (problems.length > 0) throw new PackError(problems);
}

const outputOf = (result: Awaited<ReturnType<typeof build>>): Rolldown.RolldownOutput => {
  const output = Array.isArray(result) ? result[0] : result;
  if (!output || !('output' in output)) throw new Error('vite build returned no output');
  return output;
};

async function buildClient(
  root: string,
  entry: string,
  manifest: PluginManifest,
  stage: string,
): Promise<{ style: string | undefined }> {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    mode: 'production',
    publicDir: false,
    envDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: false } },
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      outDir: stage,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry,
        formats: ['es'],
        fileName: () => manifest.client,
        cssFileName: (manifest.style ?? 'style.css').replace(/\.css$/, ''),
      },
      rolldownOptions: {
        external: (id) => CLIENT_EXTERNAL.test(id),
        output: { codeSplitting: false },
      },
    },
  });
  const output = outputOf(result).output;
  const chunk = output.find((item): item is Rolldown.OutputChunk => item.type === 'chunk' && item.isEntry);
  if (!chunk) throw new Error('the client build produced no entry chunk');
  const problems: string[] = [];
  const imports = [...chunk.imports, ...chunk.dynamicImports];
  for (const specifier of imports) {
    if (!(IMPORT_MAP_SPECIFIERS as readonly string[]).includes(specifier)) {
      problems.push(
        `the client imports ${specifier}, which the forum does not provide (it provides ${IMPORT_MAP_SPECIFIERS.join(', ')}): bundle it or drop it`,
      );
    }
  }
  for (const entryPoint of manifest.entries) {
    if (!chunk.exports.includes(entryPoint.component)) {
      problems.push(
        `plugin.json entries (${entryPoint.hookName}): the client module exports no ${entryPoint.component} (it exports ${chunk.exports.join(', ') || 'nothing'})`,
      );
    }
  }
  const css = output.filter((item) => item.type === 'asset' && item.fileName.endsWith('.css'));
  if (css.length > 0 && !manifest.style) {
    problems.push('the client imports CSS: add "style": "style.css" to plugin.json');
  }
  if (manifest.style && css.length === 0)
    problems.push(`plugin.json names a style (${manifest.style}) but the client imports no CSS`);
  const strays = output.filter((item) => item.fileName !== manifest.client && !item.fileName.endsWith('.css'));
  if (strays.length > 0)
    problems.push(`the client build wrote more than one file: ${strays.map((s) => s.fileName).join(', ')}`);
  if (problems.length > 0) throw new PackError(problems);
  return { style: manifest.style };
}

/** Node built-ins stay imports, always spelt `node:` (the forum accepts no other import in a server module). */
const nodeBuiltins: Plugin = {
  name: 'luntan-node-builtins',
  enforce: 'pre',
  resolveId(id) {
    const bare = id.startsWith('node:') ? id.slice(5) : id;
    if (NODE_BUILTINS.has(bare) || NODE_BUILTINS.has(bare.split('/')[0]!))
      return { id: `node:${bare}`, external: true };
    return null;
  },
};

async function buildServer(root: string, entry: string, fileName: string, stage: string): Promise<void> {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    mode: 'production',
    publicDir: false,
    envDir: false,
    plugins: [nodeBuiltins],
    resolve: { conditions: ['source', ...defaultServerConditions] },
    ssr: { target: 'node', noExternal: true, resolve: { conditions: ['source', ...defaultServerConditions] } },
    build: {
      ssr: entry,
      outDir: stage,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: false,
      sourcemap: false,
      target: 'node20',
      reportCompressedSize: false,
      rolldownOptions: {
        output: { format: 'es', entryFileNames: fileName, codeSplitting: false },
      },
    },
  });
  const output = outputOf(result).output;
  const chunk = output.find((item): item is Rolldown.OutputChunk => item.type === 'chunk' && item.isEntry);
  if (!chunk) throw new Error('the server build produced no entry chunk');
  const problems: string[] = [];
  if (!chunk.exports.includes('default')) {
    problems.push('the server module has no default export: export default definePluginServer((router, ctx) => ...)');
  }
  const foreign = [...chunk.imports, ...chunk.dynamicImports].filter((specifier) => !specifier.startsWith('node:'));
  if (foreign.length > 0)
    problems.push(`the server module still imports ${foreign.join(', ')}: it must be self-contained`);
  if (output.length > 1)
    problems.push(`the server build wrote more than one file: ${output.map((o) => o.fileName).join(', ')}`);
  if (problems.length > 0) throw new PackError(problems);
}

function parseArgs(argv: string[]): { dir: string; outDir: string | undefined } {
  const base = process.env.INIT_CWD ?? process.cwd();
  let dir: string | undefined;
  let outDir: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--out') outDir = argv[(i += 1)];
    else if (arg.startsWith('--out=')) outDir = arg.slice('--out='.length);
    else if (!arg.startsWith('-') && dir === undefined) dir = arg;
    else throw new PackError([`unknown argument ${arg}`]);
  }
  if (!dir) throw new PackError(['usage: npm run plugin:pack -- <plugin folder> [--out <folder>]']);
  return { dir: path.resolve(base, dir), outDir: outDir === undefined ? undefined : path.resolve(base, outDir) };
}

async function main(): Promise<void> {
  try {
    const { dir, outDir } = parseArgs(process.argv.slice(2));
    const result = await packPlugin(dir, { outDir, log: (line) => console.log(line) });
    console.log(`${result.manifest.appid} ${result.manifest.version}: ${result.files.join(', ')}`);
  } catch (error) {
    if (error instanceof PackError) {
      console.error('The plugin cannot be packed:');
      for (const problem of error.problems) console.error(`  - ${problem}`);
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
