import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * On PostgreSQL (npm test's second pass, DATABASE_URL set) the browser runs only the files whose pages show what a
 * database-specific query computes, on the desktop layout: search (PostgreSQL's own search SQL), the finance
 * statistics and the wallet (date grouping, sums, money moved in transactions), the Discuz! Q import and the main
 * reading and writing path. Everything else a page shows comes from the same services, which the server tests
 * (packages/server, every file on both databases) check on PostgreSQL; running every page in both layouts twice
 * doubled the suite's longest part for no new failure it could find (docs/testing.md, "Browser tests on
 * PostgreSQL"). E2E_ALL=1 runs everything on PostgreSQL too.
 */
const POSTGRES_FILES = [
  'tests/forum.e2e.test.ts',
  'tests/search.e2e.test.ts',
  'tests/wallet.e2e.test.ts',
  'tests/money-admin.e2e.test.ts',
  'tests/discuzq-import.e2e.test.ts',
];
const onPostgres = Boolean(process.env.DATABASE_URL) && process.env.E2E_ALL !== '1';

/**
 * Browser tests: `npx vitest run --config e2e/vitest.config.ts` from the repository root, after `npm run build`.
 * Each test file starts the built server (fresh temporary DATA_DIR, free port) and one Chromium, and runs in a
 * desktop and a mobile project. At most two files run at once.
 */
const shared = {
  root,
  environment: 'node' as const,
  include: onPostgres ? POSTGRES_FILES : ['tests/**/*.e2e.test.ts'],
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // A browser test that fails once is retried once, so a slow machine does not make the suite flaky.
  retry: 1,
  // expect.poll waits for a state of the page or the server, not for a speed: vitest's default gives up after 1 s.
  expect: { poll: { timeout: 30_000 } },
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      { test: { ...shared, name: 'desktop', provide: { device: 'desktop' as const } } },
      ...(onPostgres ? [] : [{ test: { ...shared, name: 'mobile', provide: { device: 'mobile' as const } } }]),
    ],
  },
});
