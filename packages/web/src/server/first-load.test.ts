// @vitest-environment node
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { firstLoadSizes } from './first-load';

/**
 * The home page's first-load budget, as transferred (brotli): at most 150 KB of JavaScript and 30 KB of CSS. It
 * reads the client build, which `npm test` makes before any test runs (scripts/test.mjs); on its own, run
 * `npm run build` first. See docs/performance.md, "Compressed, cacheable delivery".
 */
const CLIENT_DIR = fileURLToPath(new URL('../../dist/client', import.meta.url));
const JS_BUDGET = 150 * 1024;
const CSS_BUDGET = 30 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('first load of the home page', () => {
  it.each(['zh', 'en'] as const)('stays within budget in %s (brotli: JS 150 KB, CSS 30 KB)', (locale) => {
    expect(
      existsSync(`${CLIENT_DIR}/.vite/manifest.json`),
      `no client build in ${CLIENT_DIR}: run \`npm run build\` first`,
    ).toBe(true);
    const sizes = firstLoadSizes(CLIENT_DIR, '/', locale);
    const listing = sizes.files.map((f) => `${f.url} ${kb(f.brotliBytes)}`).join('\n');
    // The page, its language and the entry are all there, and nothing of the back office, the editor or the charts.
    expect(sizes.files.some((f) => /\/entry-client-[\w-]+\.js$/.test(f.url))).toBe(true);
    expect(sizes.files.some((f) => /\/home-[\w-]+\.js$/.test(f.url))).toBe(true);
    expect(sizes.files.some((f) => new RegExp(`/${locale}-[\\w-]+\\.js$`).test(f.url))).toBe(true);
    expect(sizes.files.filter((f) => /admin|echarts|editor|zh-admin|en-admin|schemas/.test(f.url))).toEqual([]);
    expect(sizes.jsBytes, `JS ${kb(sizes.jsBytes)} over ${kb(JS_BUDGET)}:\n${listing}`).toBeLessThanOrEqual(JS_BUDGET);
    expect(sizes.cssBytes, `CSS ${kb(sizes.cssBytes)} over ${kb(CSS_BUDGET)}:\n${listing}`).toBeLessThanOrEqual(
      CSS_BUDGET,
    );
  });
});

describe('first load of a thread page and a profile', () => {
  /** The sources bundled into a built file, from its source map. */
  const sourcesOf = (url: string): string[] =>
    (JSON.parse(readFileSync(`${CLIENT_DIR}${url}.map`, 'utf8')) as { sources: string[] }).sources;

  it.each(['/thread/1', '/user/1'])(
    '%s carries no zod and no schema (they come with the forms that check input)',
    (page) => {
      const sizes = firstLoadSizes(CLIENT_DIR, page, 'zh');
      const scripts = sizes.files.filter((f) => f.url.endsWith('.js') && existsSync(`${CLIENT_DIR}${f.url}.map`));
      expect(scripts.length).toBeGreaterThan(2);
      const schemaSources = scripts.flatMap((f) =>
        sourcesOf(f.url).filter((source) => /node_modules\/zod\/|shared\/src\/schemas\//.test(source)),
      );
      expect(schemaSources).toEqual([]);
    },
  );
});
