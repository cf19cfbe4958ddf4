import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Locale } from '@luntan/shared';
import { CATALOGUE_SOURCES } from '../i18n/runtime';
import { ROUTE_MODULES, routeModuleOf } from '../routing/route-modules';
import { pageAssets, type Manifest } from './assets';

/** What the first visit of a page costs over the wire: its scripts and stylesheets, brotli-compressed. */
export interface FirstLoadSizes {
  /** Sum of the brotli sizes of the entry script, every module preload (static imports, the page, its language). */
  jsBytes: number;
  cssBytes: number;
  /** Each file as the page names it (`/assets/...`), its size on disk and brotli-compressed. */
  files: Array<{ url: string; bytes: number; brotliBytes: number }>;
}

/** The size a file travels at: its `.br` from the build (quality 11), else compressed now at the same quality. */
function brotliSize(file: string): number {
  try {
    return readFileSync(file + '.br').length;
  } catch {
    const compressed = brotliCompressSync(readFileSync(file), {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    });
    return Math.min(compressed.length, readFileSync(file).length);
  }
}

/**
 * The scripts and stylesheets a first visit of `routePath` loads, as the server renderer lists them (pageAssets: the
 * entry, the modules it and the page import, the page's language, every stylesheet), and their brotli sizes. Reads
 * the client build in `clientDir` (packages/web/dist/client). For tests and the bench.
 */
export function firstLoadSizes(clientDir: string, routePath: string, locale: Locale = 'zh'): FirstLoadSizes {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const id = routeModuleOf(routePath);
  const routeSources = id ? [ROUTE_MODULES[id].src] : [];
  const assets = pageAssets(manifest, [CATALOGUE_SOURCES[locale], ...routeSources]);
  const urls = [...new Set([assets.entryScript, ...assets.modulePreloads, ...assets.stylesheets])].filter(
    (url): url is string => url !== null,
  );
  let jsBytes = 0;
  let cssBytes = 0;
  const files = urls.map((url) => {
    const file = path.join(clientDir, url);
    const brotliBytes = brotliSize(file);
    if (url.endsWith('.css')) cssBytes += brotliBytes;
    else jsBytes += brotliBytes;
    return { url, bytes: readFileSync(file).length, brotliBytes };
  });
  return { jsBytes, cssBytes, files };
}
