import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pluginShims } from './build/plugin-shims';

const sharedSource = fileURLToPath(new URL('../shared/src/index.ts', import.meta.url));
const sdkSource = fileURLToPath(new URL('../plugin-sdk/src/index.ts', import.meta.url));

/**
 * One config, two builds:
 * - `vite build`: the browser bundle in dist/client (hashed files under /assets/, a manifest the server reads);
 * - `vite build --ssr src/entry-server.tsx`: the server renderer in dist/server/entry-server.js.
 */
export default defineConfig(({ isSsrBuild }) => ({
  // The browser build also writes the modules a plugin may import (build/plugin-shims.ts).
  plugins: isSsrBuild ? [react()] : [react(), pluginShims()],
  resolve: {
    alias: { '@luntan/shared': sharedSource, '@luntan/plugin-sdk': sdkSource },
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
        sourcemap: true,
        rollupOptions: { input: 'src/entry-client.tsx' },
      },
  // The server bundle carries its own production React (and every other dependency): the API server need not
  // set NODE_ENV, and the bundle does not depend on how node_modules is laid out where it runs.
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : undefined,
  ssr: {
    noExternal: isSsrBuild ? true : ['@luntan/shared'],
  },
}));
