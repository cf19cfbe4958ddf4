import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Browser tests: `npx vitest run --config e2e/vitest.config.ts` from the repository root, after `npm run build`.
 * Each test file starts the built server (fresh temporary DATA_DIR, free port) and one Chromium, and runs in a
 * desktop and a mobile project. At most two files run at once.
 */
const shared = {
  root,
  environment: 'node' as const,
  include: ['tests/**/*.e2e.test.ts'],
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
      { test: { ...shared, name: 'desktop', provide: { device: 'desktop' } } },
      { test: { ...shared, name: 'mobile', provide: { device: 'mobile' } } },
    ],
  },
});
