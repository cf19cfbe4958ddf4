import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: every package's and first-party plugin's own vitest project (unit, service and HTTP tests), and
 * the repository's scripts'.
 */
export default defineConfig({
  test: {
    // One core stays for what the tests talk to (PostgreSQL, the servers and processes they start); vitest's own
    // default, made explicit so that it is chosen here rather than by a vitest release.
    maxWorkers: Math.max(1, availableParallelism() - 1),
    projects: [
      'packages/*/vitest.config.ts',
      'packages/server/vitest.processes.config.ts',
      'plugins/*/vitest.config.ts',
      'scripts/vitest.config.mjs',
    ],
  },
});
