import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: every package's and first-party plugin's own vitest project (unit, service and HTTP tests), and
 * the repository's scripts'.
 */
export default defineConfig({
  test: {
    // Every core runs tests, on SQLite (the database inside the test worker) and on PostgreSQL (a server process of
    // its own, mostly waiting for the tests' round trips): on CI's two cores the PostgreSQL pass of the server's tests
    // took 9 minutes with one worker and 5 with two. The tests that start processes of their own run one at a time
    // whatever this says (packages/server/vitest.processes.config.ts).
    maxWorkers: Math.max(1, availableParallelism()),
    projects: [
      'packages/*/vitest.config.ts',
      'packages/server/vitest.processes.config.ts',
      'plugins/*/vitest.config.ts',
      'scripts/vitest.config.mjs',
    ],
  },
});
