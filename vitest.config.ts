import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: every package's and first-party plugin's own vitest project (unit, service and HTTP tests), and
 * the repository's scripts'.
 */
export default defineConfig({
  test: {
    // On PostgreSQL one core stays for the database the tests talk to (vitest's own default, made explicit so that
    // it is chosen here rather than by a vitest release). On SQLite the database is inside the test worker, so every
    // core runs tests: on CI's two cores the SQLite pass took 6 minutes instead of 8 to 11. The tests that start
    // processes of their own run one at a time whatever this says (packages/server/vitest.processes.config.ts).
    maxWorkers: Math.max(1, availableParallelism() - (process.env.DATABASE_URL ? 1 : 0)),
    projects: [
      'packages/*/vitest.config.ts',
      'packages/server/vitest.processes.config.ts',
      'plugins/*/vitest.config.ts',
      'scripts/vitest.config.mjs',
    ],
  },
});
