import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * The server tests that start processes of their own (the built server, a cluster, SQLite writers): their own
 * project (vitest.processes.config.ts), one file at a time.
 */
export const PROCESS_TESTS = [
  'src/cluster.test.ts',
  'src/graceful-stop.test.ts',
  'src/db/sqlite-processes.test.ts',
  'src/modules/dialogs/live-processes.test.ts',
  'src/many-machines.test.ts',
  'src/core/sharp.test.ts',
];

export const serverProject = (test: NonNullable<ViteUserConfig['test']>): ViteUserConfig => ({
  resolve: {
    alias: { '@luntan/shared': fileURLToPath(new URL('../shared/src/index.ts', import.meta.url)) },
  },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The built web renderer (packages/web/dist/server) is loaded by Node itself, as in production: through vitest's
    // module runner its lazy page modules would be fetched by the runner of the first test file that rendered, which
    // is torn down when that file ends (the files share a process: isolate false below).
    server: { deps: { external: [/packages\/web\/dist\//] } },
    ...test,
  },
});

export default defineConfig(
  serverProject({ name: 'server', include: ['src/**/*.test.ts'], exclude: PROCESS_TESTS, isolate: false }),
);
