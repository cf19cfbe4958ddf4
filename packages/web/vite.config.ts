import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { pluginShims } from './build/plugin-shims';
import { ssrCjsBindings } from './build/ssr-cjs-bindings';

/**
 * The small modules every page uses (the API dispatcher, the viewer's session, the UI widgets, the shared constants)
 * and, through their imports, React Router and i18next. Left to itself the bundler splits them by which lazy pages
 * share them, into a dozen chunks of a few hundred bytes each; grouped with the entry module (and so with everything
 * the entry imports: React DOM, TanStack Query, the layouts), they are the entry's one chunk, which compresses better
 * than two halves and costs one request. The first page's budget (src/server/first-load.test.ts) counts on it.
 */
const APP_CORE =
  /packages[\\/](shared[\\/]src[\\/](codes|constants|list-codes|locale|money)\.ts|web[\\/]src[\\/](app-context|platform[\\/]|auth[\\/](session|jump-url|token)|api[\\/](queries|mutate|dispatcher|query-string|token-store|client)\.ts|hooks[\\/]use-pending|plugin-runtime[\\/]plugin-registry|components[\\/]ui[\\/]))/;

/**
 * The thread list's parts (the home page's, also the topic, search and profile pages'): a dozen modules of one or two
 * kB each. Left to the bundler they are a dozen chunks, each a request whose response headers cost nearly as much as
 * its body; as one chunk the home page's first load is some 10 kB lighter (src/server/first-load.test.ts).
 */
const THREAD_LIST =
  /packages[\\/](shared[\\/]src[\\/](topics|position)\.ts|web[\\/]src[\\/](api[\\/](forum|people|topic)-queries\.ts|components[\\/](plain-link|forum[\\/](pager|thread-card|matched-post|highlight|time-text|hot-topics|post-anchor)|thread-parts[\\/](part-marks|position-view)|money[\\/](price-tag|thread-money)|people[\\/](anonymous-user|user-hover-card|user-link))\.tsx?))$/;

/** A back-office page's chunk (src/admin/<name>-page.tsx); the plugin page (src/routes/plugin-page.tsx) is not one. */
const ADMIN_PAGE_CHUNK = /(^|[\\/])(?!plugin-page-)[a-z-]+-page-[\w-]+\.js$/;

/** The entry module, and React Query's provider and `useQueryClient` (alone, the root and lazy pages share them). */
const ENTRY =
  /(packages[\\/]web[\\/]src[\\/]entry-client\.tsx|node_modules[\\/]@tanstack[\\/]react-query[\\/].*[\\/]QueryClientProvider\.js)$/;

const sharedSource = fileURLToPath(new URL('../shared/src/index.ts', import.meta.url));
const sdkSource = fileURLToPath(new URL('../plugin-sdk/src/index.ts', import.meta.url));
/** The browser's zod, without the `new Function` probe that the page's CSP reports (src/zod-browser.ts). */
const zodBrowser = fileURLToPath(new URL('./src/zod-browser.ts', import.meta.url));

/**
 * One config, two builds:
 * - `vite build`: the browser bundle in dist/client (hashed files under /assets/, a manifest the server reads);
 * - `vite build --ssr src/entry-server.tsx`: the server renderer in dist/server/entry-server.js.
 */
export default defineConfig(({ isSsrBuild }) => ({
  // The browser build also writes the modules a plugin may import (build/plugin-shims.ts), and a `.br` (brotli at
  // its best quality) and a `.gz` (gzip level 9) next to every text file, served as they are by the API server
  // (`preCompressed` of @fastify/static in packages/server/src/modules/web/web.routes.ts).
  plugins: isSsrBuild
    ? [ssrCjsBindings(), react()]
    : [
        react(),
        pluginShims(),
        compression({
          include: /\.(js|mjs|css|json|svg|html|txt|xml)$/,
          // The manifest and the plugin import map are read by the server from disk, never sent.
          exclude: /[\\/]?\.vite[\\/]/,
          algorithms: ['brotliCompress', 'gzip'],
          logLevel: 'silent',
        }),
      ],
  resolve: {
    alias: [
      { find: '@luntan/shared', replacement: sharedSource },
      { find: '@luntan/plugin-sdk', replacement: sdkSource },
      // Only the bare name: the wrapper itself imports zod/v4.
      ...(isSsrBuild ? [] : [{ find: /^zod$/, replacement: zodBrowser }]),
    ],
  },
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        target: 'node20',
        sourcemap: true,
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        // One stylesheet for the whole app: no flash of unstyled content when a lazy route arrives.
        cssCodeSplit: false,
        modulePreload: {
          // The back office's pages load after its layout, which brought their shared parts; listing each page's
          // chunks in the entry (the first load of every visitor) for administrators' sake cost more than it saved.
          resolveDependencies: (filename, deps) => (ADMIN_PAGE_CHUNK.test(filename) ? [] : deps),
        },
        sourcemap: true,
        rollupOptions: {
          input: 'src/entry-client.tsx',
          output: {
            codeSplitting: {
              groups: [
                { name: 'entry-client', test: (id) => APP_CORE.test(id) || ENTRY.test(id) },
                // Only these modules: what they import (the query client, the plugin slots) stays where every page has it.
                { name: 'thread-list', test: THREAD_LIST, includeDependenciesRecursively: false },
              ],
            },
          },
        },
      },
  // The server bundle carries its own production React (and every other dependency): the API server need not
  // set NODE_ENV, and the bundle does not depend on how node_modules is laid out where it runs.
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : undefined,
  ssr: {
    noExternal: isSsrBuild ? true : ['@luntan/shared'],
  },
}));
