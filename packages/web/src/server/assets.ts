import { readFile } from 'node:fs/promises';

/** One entry of Vite's build manifest (dist/client/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export const CLIENT_ENTRY = 'src/entry-client.tsx';

let cached: Promise<Manifest | null> | null = null;
let warned = false;

/** Reads the client manifest next to this server bundle (dist/server → dist/client), once. */
export function loadManifest(url?: URL): Promise<Manifest | null> {
  // The default address made only when read (a page asks on every render).
  cached ??= readFile(url ?? new URL('../client/.vite/manifest.json', import.meta.url), 'utf8')
    .then((text) => JSON.parse(text) as Manifest)
    .catch((error: unknown) => {
      if (!warned) console.error('[web] Failed to load client build manifest', error);
      warned = true;
      // Try again on the next page: a build may have been made since.
      cached = null;
      return null;
    });
  return cached;
}

export interface PageAssets {
  entryScript: string | null;
  readonly stylesheets: readonly string[];
  readonly modulePreloads: readonly string[];
}

/** What `pageAssets` found, by manifest and by the page's sources: a manifest never changes once read. */
const assetsOf = new WeakMap<Manifest, Map<string, PageAssets>>();

/**
 * The entry script, every stylesheet, and module preloads for the entry's imports and the matched pages: walked once
 * per set of sources (a route and a language) and then shared by every page of it, so not to be changed.
 */
export function pageAssets(manifest: Manifest | null, routeSources: string[]): PageAssets {
  if (!manifest) return { entryScript: null, stylesheets: [], modulePreloads: [] };
  let bySources = assetsOf.get(manifest);
  if (!bySources) assetsOf.set(manifest, (bySources = new Map()));
  const key = routeSources.join('\n');
  let assets = bySources.get(key);
  if (!assets) bySources.set(key, (assets = walkAssets(manifest, routeSources)));
  return assets;
}

function walkAssets(manifest: Manifest, routeSources: string[]): PageAssets {
  const entry = manifest[CLIENT_ENTRY];
  const styles = new Set<string>();
  const preloads = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string, preloadSelf: boolean): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    if (preloadSelf) preloads.add('/' + chunk.file);
    for (const css of chunk.css ?? []) styles.add('/' + css);
    for (const imported of chunk.imports ?? []) visit(imported, true);
  };
  // With cssCodeSplit off, Vite lists the one stylesheet of the app under its own key (style.css).
  for (const chunk of Object.values(manifest)) if (chunk.file.endsWith('.css')) styles.add('/' + chunk.file);
  visit(CLIENT_ENTRY, false);
  for (const source of routeSources) visit(source, true);
  return {
    entryScript: entry ? '/' + entry.file : null,
    stylesheets: [...styles],
    modulePreloads: [...preloads],
  };
}

/** The import map of plugin modules (build/plugin-shims.ts writes it next to the manifest): specifier → URL. */
export interface ImportMap {
  imports: Record<string, string>;
}

let cachedImportMap: Promise<ImportMap | null> | null = null;

/** Reads the plugin import map of the browser build, once (null when the build has none). */
export function loadImportMap(url?: URL): Promise<ImportMap | null> {
  cachedImportMap ??= readFile(url ?? new URL('../client/.vite/plugin-import-map.json', import.meta.url), 'utf8')
    .then((text) => JSON.parse(text) as ImportMap)
    .catch(() => {
      cachedImportMap = null;
      return null;
    });
  return cachedImportMap;
}
